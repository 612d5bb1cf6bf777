"""Seekers and challengers: the lobby's personas (ana, ben, cleo, dan) and what they were told.

`told` records every live message sent after commit (`gameplay.services.live`), as
`(group, message)` pairs, so a test reads what each person's pages heard.
"""

from __future__ import annotations

from typing import Any

import pytest

from gameplay.services import live
from tests.browser.conftest import browser, screenshots, server  # noqa: F401  (fixtures)
from tests.lobby.conftest import api, make_user  # noqa: F401  (re-exported for the tests)


@pytest.fixture
def ana() -> Any:
    return make_user("ana")


@pytest.fixture
def ben() -> Any:
    return make_user("ben")


@pytest.fixture
def cleo() -> Any:
    return make_user("cleo")


@pytest.fixture
def dan() -> Any:
    return make_user("dan")


class Told(list):
    """The live messages sent, in order: `(group, message)`."""

    def to(self, user: Any) -> list[dict[str, Any]]:
        return [m for g, m in self if g == live.user_group(user.pk)]

    def lobby(self) -> list[dict[str, Any]]:
        return [m for g, m in self if g == live.LOBBY_GROUP]


@pytest.fixture
def told(monkeypatch) -> Told:
    """What would go out after commit (the tests' transaction never commits): recorded when the
    service sends it."""
    sent = Told()
    monkeypatch.setattr(live, "to_user", lambda uid, m: sent.append((live.user_group(uid), m)))
    monkeypatch.setattr(live, "to_lobby", lambda m: sent.append((live.LOBBY_GROUP, m)))
    return sent
