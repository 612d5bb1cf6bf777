"""Every kind of page in German, Italian and Japanese (issue #22, "The suite passes with each
language active"): a representative page of each view renders (200), says its language in
`<html lang>`, shows a heading or label as the translators wrote it, and none of a few English
words it would show untranslated. The whole suite in one language: docs/translations.md."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import registry
from league.models import Player
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.results import record_result
from tests.gameplay.conftest import make_table, quick_tables, token  # noqa: F401
from tests.league.conftest import alice, make_event, play_round  # noqa: F401

pytestmark = pytest.mark.django_db

LANGUAGES = ["de", "it", "ja"]


@pytest.fixture
def site(make_event, alice):  # noqa: F811
    """An event with a played round and a player with an account, a duplicate event with a
    complete round, and a friendly table: something on every page."""
    event = make_event("saichugen", players=6)
    round_ = play_round(event, alice)
    player = Player.objects.get(name="sai-player-0")
    player.user = get_user_model().objects.create_user("paula", password="pw")
    player.save()
    dup = make_event(
        "saichugen", players=0, scoring="duplicate", deals_per_match=1, play_online=False
    )
    for n in range(3):
        event_services.add_entry(
            dup, Player.objects.create(name=f"dup-player-{n}"), by=alice, checked_in=True
        )
    dup_round = round_services.generate_round(dup, by=alice)
    round_services.publish_round(dup_round, by=alice)
    for fixture in dup_round.fixtures.all():
        record_result(fixture, by=alice, sheet={"deals": [{"scores": [30, 25, 20]}]})
    return {
        "event": event,
        "round": round_,
        "player": player,
        "dup": dup,
        "dup_round": dup_round,
    }


def urls(site) -> dict[str, str]:
    event, dup = site["event"], site["dup"]
    out = {
        "home": "/",
        "play": reverse("gameplay:play"),
        "events": reverse("league:events"),
        "event": reverse("league:event", args=[event.slug]),
        "standings": reverse("league:standings", args=[event.slug]),
        "round": reverse("league:round", args=[event.slug, site["round"].number]),
        "traveller": reverse("league:traveller", args=[dup.slug, site["dup_round"].number, 1]),
        "player": reverse("league:player", args=[site["player"].pk]),
        "profile": reverse("profile"),
        "login": "/accounts/login/",
        "signup": "/accounts/signup/",
    }
    for game in registry.game_names():
        out[f"rules-{game}"] = reverse("gameplay:rules", args=[game])
    return out


def texts(page: str) -> set[str]:
    """The words of the page's headings, table heads, labels and buttons, tags dropped."""
    found = re.findall(r"<(h1|h2|h3|th|label|button)\b[^>]*>(.*?)</\1>", page, re.S)
    return {html.unescape(re.sub(r"<[^>]+>|\s+", " ", text)).strip() for _tag, text in found}


# page → (a heading or label as the translators wrote it, by language; English it must not show)
EXPECTED = {
    "home": (
        {"de": "Jetzt spielen", "it": "Gioca ora", "ja": "今すぐプレイ"},
        ["Play now", "Open tables", "Tables in play"],
    ),
    "play": (
        {
            "de": "Jetzt gegen Bots spielen",
            "it": "Gioca subito contro i bot",
            "ja": "今すぐボットと対局",
        },
        ["Play now against bots", "Open tables"],
    ),
    "events": (
        {"de": "Veranstaltungen", "it": "Eventi", "ja": "大会"},
        ["Events", "Game", "Entries"],
    ),
    "event": ({"de": "Runden", "it": "Turni", "ja": "ラウンド"}, ["Rounds", "Player", "Club"]),
    "standings": (
        {
            "de": "Durchschnittliche Auszahlung der Gegner",
            "it": "Pagamento medio degli avversari",
            "ja": "対戦相手の平均精算",
        },
        ["Standings", "Played", "Match points", "Payouts"],
    ),
    "round": (
        {
            "de": "Wie diese Runde funktioniert",
            "it": "Come funziona questo turno",
            "ja": "このラウンドのしくみ",
        },
        ["Round 1", "Table 1", "Seat", "Payout"],
    ),
    "traveller": (
        {
            "de": "Laufzettel: Runde 1, Spiel 1",
            "it": "Score: turno 1, smazzata 1",
            "ja": "トラベラー：第1ラウンド、ディール 1",  # noqa: RUF001
        },
        ["Table", "Seat", "Payout", "Difference"],
    ),
    "player": (
        {"de": "Veranstaltungen", "it": "Eventi", "ja": "大会"},
        ["Events", "Results and payouts", "Total payouts"],
    ),
    "profile": (
        {"de": "Dein Profil", "it": "Il tuo profilo", "ja": "プロフィール"},
        ["Your profile", "Preferred language:", "Save", "Log out"],
    ),
    "login": ({"de": "Anmeldung", "it": "Accedi", "ja": "ログイン"}, ["Sign In", "Remember Me:"]),
    "signup": (
        {"de": "Registrieren", "it": "Registrazione", "ja": "ユーザー登録"},
        ["Sign Up", "Email (optional):"],
    ),
    **{
        f"rules-{game}": (
            {"de": "Die Karten", "it": "Le carte", "ja": "カード"}
            if game != "three_five_eight"
            else {
                "de": "Die Karten und das Soll",
                "it": "Le carte e gli obiettivi",
                "ja": "カードとノルマ",
            },
            ["The cards", "Scoring", "A deal"],
        )
        for game in registry.game_names()
    },
}


@pytest.mark.parametrize(
    "name",
    list(EXPECTED),
)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_is_in_the_readers_language(client, site, name, language):
    marker, english = EXPECTED[name]
    if name == "profile":  # a player reads their own pages in their profile's language
        user = site["player"].user
        user.language = language
        user.save()
        client.force_login(user)
    response = client.get(urls(site)[name], HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    page = response.content.decode()
    assert re.search(r'<html lang="([^"]*)"', page).group(1) == language
    words = texts(page)
    assert marker[language] in words, sorted(words)
    assert not words & set(english), sorted(words & set(english))
