"""Shared test wiring: service markers and helpers for subprocess servers."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings as hypothesis_settings

# Property tests are judged by what they find, never by how fast an example ran: a loaded CI
# machine (two workers, a browser) must not turn a slow example into a failure.
hypothesis_settings.register_profile("mediana", deadline=None)
hypothesis_settings.load_profile("mediana")

# The whole suite in one language (docs/translations.md, "The suite in another language"):
# `MEDIANA_TEST_LANGUAGE=de pytest …` makes every Django test client ask for it by
# Accept-Language and every new account read the site in it (its profile language).
TEST_LANGUAGE = os.environ.get("MEDIANA_TEST_LANGUAGE", "")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip service tests only when their URL is unset; never under MEDIANA_REQUIRE_SERVICES=1,
    which `.ci/run` sets for its run on PostgreSQL and Redis (its newcomer's run has neither)."""
    missing = {
        "redis": not os.environ.get("REDIS_URL"),
        "postgres": not (os.environ.get("DATABASE_URL", "").startswith("postgres")),
    }
    for item in items:
        for marker, is_missing in missing.items():
            if is_missing and item.get_closest_marker(marker):
                if os.environ.get("MEDIANA_REQUIRE_SERVICES") == "1":
                    raise pytest.UsageError(f"{item.nodeid} needs {marker}, which must be set")
                item.add_marker(pytest.mark.skip(reason=f"{marker} not configured"))


@pytest.fixture
async def close_thread_connections():
    """Close the database connection of the thread that runs sync code for async tests.

    Channels runs ORM calls in a shared worker thread; its connection outlives the test and
    would keep PostgreSQL from dropping the test database at the end of the run.
    """
    yield
    from asgiref.sync import sync_to_async
    from django.db import connections

    from gameplay.runtime import runner

    await runner.settle_bot_moves()  # a bot move still thinking would reconnect after this
    await sync_to_async(connections.close_all)()


@pytest.fixture
def watched(monkeypatch):
    """Every move publishes the spectators' state, as at a table somebody watches.

    A move nobody watches skips it (`Table.watchers`, docs/tables.md "Watchers"); tests that
    check the spectators' states of tables without spectator sockets (leaks, summaries) use this.
    """
    from gameplay.services import play

    real = play.after_commit
    monkeypatch.setattr(play, "after_commit", lambda *a, watchers=None, **k: real(*a, **k))


@pytest.fixture(autouse=True, scope="session")
def _stop_the_bot_processes():
    """Stop the processes beside the server where bots think (`gameplay.runtime.thinkers`)
    when the session ends: a test worker may leave without the interpreter's exit handlers."""
    yield
    from gameplay.runtime import thinkers

    thinkers.shutdown()


@pytest.fixture(autouse=True, scope="session")
def _test_language():
    """Under MEDIANA_TEST_LANGUAGE: every test client's request asks for that language (unless
    the test asks for another one itself) and accounts are created with it as their profile
    language, so pages for visitors and for logged-in players alike come in it."""
    if not TEST_LANGUAGE:
        yield
        return
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test.client import RequestFactory

    if TEST_LANGUAGE not in dict(settings.LANGUAGES):
        raise pytest.UsageError(f"MEDIANA_TEST_LANGUAGE={TEST_LANGUAGE!r} is not offered")
    real_environ = RequestFactory._base_environ

    def base_environ(self, **request):
        if "HTTP_ACCEPT_LANGUAGE" not in self.defaults:
            request.setdefault("HTTP_ACCEPT_LANGUAGE", TEST_LANGUAGE)
        return real_environ(self, **request)

    field = get_user_model()._meta.get_field("language")
    real_default = field.default
    RequestFactory._base_environ = base_environ
    field.default = TEST_LANGUAGE
    field.__dict__.pop("_get_default", None)  # Field caches its default
    yield
    RequestFactory._base_environ = real_environ
    field.default = real_default
    field.__dict__.pop("_get_default", None)


@pytest.fixture(autouse=True)
def _language_of_the_thread():
    """Every test starts and ends in the default language. A request activates the language it
    asks for in the thread that serves it (LocaleMiddleware does not undo it), so without this
    a test client's request in Japanese would leave the next test's own `gettext` in Japanese."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()
