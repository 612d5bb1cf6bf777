"""The rules pages' tests: the league personas for event pages, the browser suite's server and
Chromium for the one check in a real browser."""

from __future__ import annotations

from tests.browser.conftest import browser, desktop, phone, screenshots, server  # noqa: F401
from tests.gameplay.conftest import quick_tables as quick_tables  # autouse
from tests.league.conftest import alice, bob  # noqa: F401
