"""Shared test wiring: service markers and helpers for subprocess servers."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip service tests only when their URL is unset (never in CI, where .ci/run sets both)."""
    missing = {
        "redis": not os.environ.get("REDIS_URL"),
        "postgres": not (os.environ.get("DATABASE_URL", "").startswith("postgres")),
    }
    for item in items:
        for marker, is_missing in missing.items():
            if is_missing and item.get_closest_marker(marker):
                if os.environ.get("CI"):
                    raise pytest.UsageError(f"{item.nodeid} needs {marker}, which CI must provide")
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

    from gameplay.services import runner

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
    """Stop the processes beside the server where bots think (`gameplay.services.thinkers`)
    when the session ends: a test worker may leave without the interpreter's exit handlers."""
    yield
    from gameplay.services import thinkers

    thinkers.shutdown()
