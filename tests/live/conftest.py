"""The live messages' tests: the lobby's personas (tests/lobby/conftest.py), a finished table of
three people, and what the lobby socket's services sent (`sent`, after commit)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gameplay.models import Seat
from gameplay.services import live, lobby
from tests.browser.conftest import browser, screenshots, server  # noqa: F401  (fixtures)
from tests.lobby.conftest import ana, ben, cleo, olga, play_out  # noqa: F401  (fixtures)


@pytest.fixture
def sent(monkeypatch) -> list[tuple[list[str], dict[str, Any]]]:
    """Every live message handed to the channel layer: `(groups, message)`."""
    out: list[tuple[list[str], dict[str, Any]]] = []
    monkeypatch.setattr(live, "_send", lambda groups, message: out.append((groups, message)))
    return out


@pytest.fixture
def finished(ana, ben, cleo):  # noqa: F811
    """A finished casual one-deal Saichugen table of ana (seat 0), ben and cleo."""
    table = lobby.create_friendly(ana, game="saichugen", deals=1, rated=False).table
    lobby.join(ben, table.id)
    lobby.join(cleo, table.id)
    return play_out(table.id)


def groups_of(*users: Any) -> list[str]:
    return [live.user_group(u.pk) for u in users]


def no_token_in(message: dict[str, Any]) -> bool:
    """Whether no seat token of any table appears in the message."""
    text = json.dumps(message)
    return not any(token in text for token in Seat.objects.values_list("token", flat=True))
