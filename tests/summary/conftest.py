"""The end of a deal: table fixtures shared with the table tests (tests/gameplay/conftest.py)."""

from __future__ import annotations

import pytest

from gameplay.runtime import cache
from tests.gameplay.conftest import match_cache  # noqa: F401  (a fixture, used by name)


@pytest.fixture(autouse=True)
def quick_tables(settings):
    """Bots move at once, no background sweeper, a fresh cache (as in tests/gameplay)."""
    settings.GAMEPLAY_BOT_DELAY = 0
    settings.GAMEPLAY_EMBEDDED_SWEEPER = False
    cache.forget()
    yield
    cache.forget()
