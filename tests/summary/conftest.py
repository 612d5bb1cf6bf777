"""The end of a deal: table fixtures shared with the table tests (tests/gameplay/conftest.py)."""

from __future__ import annotations

from tests.gameplay.conftest import (
    match_cache,  # noqa: F401  (a fixture, used by name)
    quick_tables,  # noqa: F401  (autouse: bots at once, no sweeper, fresh cache)
)
