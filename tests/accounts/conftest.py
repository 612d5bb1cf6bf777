"""The browser test here uses the browser suite's real server and Chromium."""

from tests.browser.conftest import browser, desktop, screenshots, server  # noqa: F401
