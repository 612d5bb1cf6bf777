"""Settings for the test suite: the real settings, with in-process Celery and channels.

DATABASE_URL still decides the database (PostgreSQL in CI). Tests that need Redis, a real
worker or several server processes use REDIS_URL themselves and are marked `redis`.
"""

import os

os.environ.setdefault("SECRET_KEY", "test-secret-key")

from config.settings import *  # noqa: F403

# SQLite's in-memory test database (Django's default) shares one cache between connections,
# where a lock held by one thread fails another thread's statement at once ("database table is
# locked") instead of waiting: tests whose table server, pool threads or bots write beside the
# test failed or passed by timing. A file, as the embedded mode uses, waits for the lock like
# production does (the busy timeout of SQLITE_OPTIONS). pytest-django adds each xdist worker's
# suffix to the name, and Django removes the file at the end of the run.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    VAR_DIR.mkdir(parents=True, exist_ok=True)  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}  # noqa: F405

CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
CELERY_TASK_ALWAYS_EAGER = True
# The end of a match is counted inline, so a test sees its result when the move returns; the
# tests of the thread beside the server turn it on and wait for it (`league.queue.settle`).
LEAGUE_EMBEDDED_BESIDE = False
GAMEPLAY_ANALYSIS_BESIDE = False
GAMEPLAY_ANALYSIS_ITERATIONS = 4
# No schedule of beat's in a test's event loop (tests run the tasks themselves, under their own
# clocks); the tests of the embedded schedule turn it on.
GAMEPLAY_EMBEDDED_SWEEPER = False
CELERY_BROKER_URL = "memory://"
CELERY_RESULT_BACKEND = "cache+memory://"
if not VAPID_PRIVATE_KEY:  # noqa: F405  (DATABASE_URL set: CI) a key for this run
    from config.vapid import generate_pair

    VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY = generate_pair()
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Each test run counts API throttles alone (never in a Redis shared with other runs), and the
# rates are high enough for tests that write a lot; tests of throttling set low rates themselves.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {
        "anon_write": "10000/minute",
        "user_write": "10000/minute",
        "token": "10000/minute",
    },
}
FAIR_PLAY_JUDGE_BESIDE = False  # judged inline: no spawned process per test
