"""Every kind of page in German, Italian and Japanese (issue #22, "The suite passes with each
language active"): a representative page of each view renders (200), says its language in
`<html lang>`, shows a heading or label as the translators wrote it, and none of a few English
words it would show untranslated. The whole suite in one language: docs/translations.md."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from gameplay.engines import registry
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
        player = Player.objects.create(name=f"dup-player-{n}")
        event_services.add_entry(dup, player, by=alice, checked_in=True)
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


def pages(site) -> dict[str, str]:
    event, dup = site["event"], site["dup"]
    urls = {
        "home": "/",
        "play": reverse("gameplay:play"),
        "events": reverse("league:events"),
        "event": reverse("league:event", args=[event.slug]),
        "standings": reverse("league:standings", args=[event.slug]),
        "round": reverse("league:round", args=[event.slug, site["round"].number]),
        "traveller": reverse("league:traveller", args=[dup.slug, site["dup_round"].number, 1]),
        "player": reverse("league:player", args=[site["player"].pk]),
        "login": "/accounts/login/",
        "signup": "/accounts/signup/",
    }
    for game in registry.game_names():
        urls[f"rules-{game}"] = reverse("gameplay:rules", args=[game])
    return urls


def test_dump(client, site):
    for language in ["en", *LANGUAGES]:
        for name, url in pages(site).items():
            response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
            html = response.content.decode()
            heads = re.findall(r"<(h1|h2|th|label|button)[^>]*>(.*?)</\1>", html, re.S)
            with open(f"/tmp/i18np/{language}-{name}.txt", "w") as out:
                out.write(f"{response.status_code}\n")
                for tag, text in heads:
                    clean = re.sub(r"<[^>]+>|\s+", " ", text).strip()
                    out.write(f"{tag}: {clean}\n")
