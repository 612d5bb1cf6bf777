"""/healthz reports each service, and names what is down with a 503."""

from __future__ import annotations

import os

import pytest

pytestmark = pytest.mark.django_db

UNREACHABLE_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def test_all_up_in_embedded_mode(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "up"
    assert body["down"] == []
    assert set(body["checks"]) == {"database", "channel_layer", "celery_broker"}
    assert body["checks"]["celery_broker"]["mode"] == "eager"


def test_stopped_redis_is_reported_down(client, settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": UNREACHABLE_REDIS, "socket_connect_timeout": 1}]},
        }
    }
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = UNREACHABLE_REDIS
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "down"
    assert body["down"] == ["celery_broker", "channel_layer"]
    assert body["checks"]["database"]["status"] == "up"
    assert "error" in body["checks"]["channel_layer"]


@pytest.mark.redis
def test_real_redis_is_reported_up(client, settings):
    redis_url = os.environ["REDIS_URL"]
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [redis_url]},
        }
    }
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = redis_url
    response = client.get("/healthz")
    assert response.status_code == 200, response.json()
    checks = response.json()["checks"]
    assert checks["channel_layer"]["backend"] == "RedisPubSubChannelLayer"
    assert checks["celery_broker"]["mode"] == "broker"


@pytest.mark.postgres
def test_the_suite_runs_on_postgresql(client):
    assert client.get("/healthz").json()["checks"]["database"]["vendor"] == "postgresql"
