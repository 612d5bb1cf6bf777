"""The table helpers of tests/gameplay (tables with people and bots, bots moving at once), and
the browser suite's server and Chromium for the browser tests here."""

from tests.browser.conftest import browser, desktop, phone, screenshots, server  # noqa: F401
from tests.gameplay.conftest import quick_tables  # noqa: F401
