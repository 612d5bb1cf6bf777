"""The league tests' personas (alice organizes) and event builder, for the display tests."""

from __future__ import annotations

from tests.league.conftest import alice, make_event  # noqa: F401
