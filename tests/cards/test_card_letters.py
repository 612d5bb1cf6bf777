"""Card letters as the page's language reads them (issue #31): a German page shows B D K A
(Bube, Dame, König, Ass) on French-suited cards, the viewer's "french" faces keep J Q K A, and
Italian-suited cards keep A R C F in every language — on the rules pages' examples and in the
hand records, as the table's client does (tests/cards/test_browser.py)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from gameplay.api import rank_label
from league.pages.printing import hand_lines
from tests.gameplay.conftest import make_users


def ranks(html: str) -> list[str]:
    return re.findall(r'<span class="rank">([^<]+)</span>', html)


@pytest.mark.parametrize(
    ("language", "letters"),
    [("en", "J Q K A"), ("de", "B D K A"), ("it", "J Q K A"), ("ja", "J Q K A")],
)
def test_court_cards_in_each_language(language, letters):
    with translation.override(language):
        assert " ".join(rank_label(r, "S", "home") for r in "JQKA") == letters
        # Chosen French faces, the ten, a pip card and the Italian suits never change.
        assert " ".join(rank_label(r, "S", "french") for r in "JQKA") == "J Q K A"
        assert [rank_label("T", "H"), rank_label("7", "C")] == ["10", "7"]
        assert [rank_label(r, "d") for r in "ARCF"] == list("ARCF")


@pytest.mark.django_db
def test_the_rules_page_draws_german_letters_in_german(client):
    url = reverse("gameplay:rules", args=["schieberamsch"])
    english = ranks(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    german = ranks(client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode())
    assert english[:4] == ["J", "J", "J", "J"] and german[:4] == ["B", "B", "B", "B"]
    assert "Q" not in german and "D" in german and "10" in german
    (ana,) = make_users("ana")
    ana.card_faces = "french"
    ana.save()
    client.force_login(ana)
    chosen = ranks(client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode())
    assert chosen == english


@pytest.mark.django_db
def test_mediatore_keeps_its_italian_letters_in_german(client):
    url = reverse("gameplay:rules", args=["mediatore"])
    german = ranks(client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode())
    assert german[:10] == ["3", "2", "A", "R", "C", "F", "7", "6", "5", "4"]


def test_hand_records_use_the_letters_too():
    hand = ["JC", "QS", "TS", "AS", "3d", "Fd"]
    with translation.override("de"):
        lines = {line["suit"]: line["ranks"] for line in hand_lines(hand)}
        assert lines["S"] == "A D 10" and lines["C"] == "B" and lines["d"] == "F 3"
        french = {line["suit"]: line["ranks"] for line in hand_lines(hand, "french")}
        assert french["S"] == "A Q 10" and french["C"] == "J"
