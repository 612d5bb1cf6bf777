"""/healthz reports each service, and names what is down with a 503; only staff see why."""

from __future__ import annotations

import os
import time

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache

from config import health
from gameplay.services import clocks

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
    assert body["down"] == [] and body["late"] == []
    assert set(body["checks"]) == {"database", "channel_layer", "celery_broker", "schedule"}
    assert body["checks"]["celery_broker"]["mode"] == "eager"
    assert body["checks"]["schedule"]["mode"] == "embedded"


def test_anybody_sees_what_is_up_and_nothing_about_how(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    names = ("database", "channel_layer", "celery_broker", "schedule")
    assert response.json() == {
        "status": "up",
        "down": [],
        "late": [],
        "checks": {name: {"status": "up"} for name in names},
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


@pytest.fixture
def with_beat(settings):
    """A deployment with a broker (the memory transport answers the broker's check): the
    schedule is beat's, and beat's sweeps are what /healthz looks for."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.SCHEDULE_LATE_AFTER = 30
    cache.delete(clocks.SWEPT_AT)
    yield
    cache.delete(clocks.SWEPT_AT)


def test_a_late_schedule_is_named_but_the_process_still_serves(staff_client, with_beat):
    cache.set(clocks.SWEPT_AT, time.time() - 120, None)
    response = staff_client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "up" and body["late"] == ["schedule"]
    assert body["checks"]["schedule"] == {"status": "late", "seconds_since_sweep": "120"}


def test_a_sweep_of_the_clocks_is_the_schedules_heartbeat(staff_client, with_beat):
    clocks.sweep_clocks()
    body = staff_client.get("/healthz").json()
    assert body["late"] == [] and body["checks"]["schedule"]["status"] == "up"


def test_no_sweep_on_record_is_late_once_the_process_has_been_up_a_while(
    client, with_beat, monkeypatch
):
    monkeypatch.setattr(health, "STARTED", time.monotonic())
    assert client.get("/healthz").json()["late"] == []  # just started: beat's first sweep is due
    monkeypatch.setattr(health, "STARTED", time.monotonic() - 31)
    body = client.get("/healthz").json()
    assert body["late"] == ["schedule"] and body["checks"]["schedule"] == {"status": "late"}
