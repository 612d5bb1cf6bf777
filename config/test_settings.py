"""Settings for the test suite: the real settings, with in-process Celery and channels.

DATABASE_URL still decides the database (PostgreSQL in CI). Tests that need Redis, a real
worker or several server processes use REDIS_URL themselves and are marked `redis`.
"""

import os

os.environ.setdefault("SECRET_KEY", "test-secret-key")

from config.settings import *  # noqa: F403

CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
CELERY_TASK_ALWAYS_EAGER = True
CELERY_BROKER_URL = "memory://"
CELERY_RESULT_BACKEND = "cache+memory://"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
