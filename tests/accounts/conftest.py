"""The browser test here uses the browser suite's real server and Chromium; the league's
personas (alice organizes, charlie is outside) and event builder serve the account tests."""

from tests.browser.conftest import browser, desktop, screenshots, server  # noqa: F401
from tests.league.conftest import alice, charlie, make_event  # noqa: F401
