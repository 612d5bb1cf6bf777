"""Guests (accounts/guests.py): the lobby's personas and helpers, a fresh cache for the
guest throttle, and the browser suite's server and Chromium for the browser test."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache as django_cache

from accounts.guests import create_guest
from tests.browser.conftest import browser, desktop, phone, screenshots, server  # noqa: F401
from tests.gameplay.conftest import quick_tables  # noqa: F401  (autouse)
from tests.lobby.conftest import ana, ben  # noqa: F401


@pytest.fixture(autouse=True)
def _fresh_throttle() -> Any:
    """The guest throttle counts in the default cache: each test starts from nothing."""
    django_cache.clear()
    yield
    django_cache.clear()


@pytest.fixture
def guest() -> Any:
    return create_guest("192.0.2.1")
