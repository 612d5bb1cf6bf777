"""/healthz reports each service, and names what is down with a 503; only staff see why."""

from __future__ import annotations

import os

import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db

UNREACHABLE_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1


@pytest.fixture
def staff_client(client):
    staff = get_user_model().objects.create_user("sam", password="pw", is_staff=True)
    client.force_login(staff)
    return client


@pytest.fixture
def redis_down(settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": UNREACHABLE_REDIS, "socket_connect_timeout": 1}]},
        }
    }
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = UNREACHABLE_REDIS


def test_all_up_in_embedded_mode(staff_client):
    response = staff_client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "up"
    assert body["down"] == []
    assert set(body["checks"]) == {"database", "channel_layer", "celery_broker"}
    assert body["checks"]["celery_broker"]["mode"] == "eager"


def test_anybody_sees_what_is_up_and_nothing_about_how(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "up",
        "down": [],
        "checks": {
            name: {"status": "up"} for name in ("database", "channel_layer", "celery_broker")
        },
    }


def test_stopped_redis_is_reported_down_and_only_staff_see_the_error(
    client, redis_down, django_user_model, caplog
):
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "down"
    assert body["down"] == ["celery_broker", "channel_layer"]
    assert body["checks"]["database"] == {"status": "up"}
    assert body["checks"]["channel_layer"] == {"status": "down"}
    assert body["checks"]["celery_broker"] == {"status": "down"}
    assert "127.0.0.1" not in response.content.decode()
    assert "Redis" not in response.content.decode()
    # the log keeps the detail for whoever runs the site
    assert "channel_layer is down: Error 111 connecting to 127.0.0.1:1" in caplog.text

    player = django_user_model.objects.create_user("pat", password="pw")
    client.force_login(player)
    assert client.get("/healthz").json()["checks"]["channel_layer"] == {"status": "down"}

    player.is_staff = True
    player.save()
    body = client.get("/healthz").json()
    assert body["down"] == ["celery_broker", "channel_layer"]
    assert body["checks"]["channel_layer"]["status"] == "down"
    assert "127.0.0.1:1" in body["checks"]["channel_layer"]["error"]
    assert "127.0.0.1:1" in body["checks"]["celery_broker"]["error"]


@pytest.mark.redis
def test_real_redis_is_reported_up(staff_client, settings):
    redis_url = os.environ["REDIS_URL"]
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [redis_url]},
        }
    }
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = redis_url
    response = staff_client.get("/healthz")
    assert response.status_code == 200, response.json()
    checks = response.json()["checks"]
    assert checks["channel_layer"]["backend"] == "RedisPubSubChannelLayer"
    assert checks["celery_broker"]["mode"] == "broker"


@pytest.mark.postgres
def test_the_suite_runs_on_postgresql(staff_client):
    assert staff_client.get("/healthz").json()["checks"]["database"]["vendor"] == "postgresql"
