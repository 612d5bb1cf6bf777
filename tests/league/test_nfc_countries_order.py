"""Names, countries and the order of names (issue Organizers III): "Zoë" typed with a combining
diaeresis (NFD) is the player "Zoë" whichever way it comes in and never a second one; a
country is an ISO 3166 code ("XX" refused in forms, the import and the API) shown by its name;
entries are listed in the reader's alphabet ("Łukasz" beside "Lukas").

alice organizes (accounts and events from tests/league/conftest.py).
"""

from __future__ import annotations

import re
import unicodedata

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from league.errors import LeagueError
from league.models import Entry, Event, Player
from league.profile.services import update_profile
from league.services import entry_import, organizers, players
from league.services import events as event_services
from league.services.entry_import import ImportProblems, ImportRow

pytestmark = pytest.mark.django_db

User = get_user_model()
NFC = "Zo\u00eb"
NFD = "Zoe\u0308"


@pytest.fixture(autouse=True)
def fresh_limits():
    """allauth's sign-up limits count in the cache, which outlives a test's rollback."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def cup(alice) -> Event:
    event = event_services.create_event(alice, name="Cup", game="saichugen", rounds=2)
    event_services.publish_event(event, by=alice)
    return event


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def api(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


# --- NFC --------------------------------------------------------------------------------------


def test_zoe_typed_in_nfd_is_the_nfc_player_every_way_in(alice, cup):
    assert NFD != NFC and unicodedata.normalize("NFC", NFD) == NFC
    zoe = Player.objects.create(name=NFC)
    people = Player.objects.count()

    assert players.player_named(NFD) == (zoe, False)
    entries_page = reverse("league:entries", args=[cup.slug])
    assert (
        logged_in(alice).post(entries_page, {"player": NFD, "checked_in": "on"}).status_code == 302
    )
    assert Entry.objects.filter(event=cup, player=zoe).exists()

    other = event_services.create_event(alice, name="Other cup", game="saichugen", rounds=2)
    event_services.publish_event(other, by=alice)
    made = api(alice).post(f"/api/events/{other.slug}/entries/", {"player": NFD}, format="json")
    assert made.status_code == 201 and made.json()["player"]["id"] == zoe.pk

    third = event_services.create_event(alice, name="Third cup", game="saichugen", rounds=2)
    event_services.publish_event(third, by=alice)
    asked = logged_in(alice).post(
        reverse("league:entries_import", args=[third.slug]), {"text": f"{NFD},Club"}
    )
    assert asked.status_code == 200 and f'href="/players/{zoe.pk}/"' in asked.content.decode()
    url = f"/api/events/{third.slug}/entries/import/"
    conflict = api(alice).post(url, {"rows": [{"name": NFD}]}, format="json")
    assert conflict.status_code == 409 and conflict.json()["matches"][0]["player"]["id"] == zoe.pk
    done = api(alice).post(url, {"rows": [{"name": NFD, "use_existing": True}]}, format="json")
    assert done.status_code == 201 and done.json()[0]["player"]["id"] == zoe.pk

    signup = {"username": NFD, "password1": "a long pass phrase", "password2": "a long pass phrase"}
    assert Client().post("/accounts/signup/", signup).status_code == 200  # the name is Zoë's
    assert not User.objects.filter(username__in=[NFC, NFD]).exists()
    assert Player.objects.count() == people


def test_a_name_saved_any_other_way_is_kept_in_nfc(alice, cup):
    made = Player.objects.create(name="Jose\u0301")  # the admin, a script
    assert Player.objects.filter(name="Jos\u00e9").get() == made
    account = User.objects.create(username="Rene\u0301")  # an account made without the forms
    assert players.player_for_user(account).name == "Ren\u00e9"
    assert organizers.account_named("rene\u0301") == account  # a co-organizer, typed in NFD


def test_the_migration_keeps_a_name_that_would_be_anothers_and_says_so(capsys):
    from importlib import import_module

    from django.apps import apps

    migration = import_module("league.migrations.0017_player_names_nfc")
    zoe = Player.objects.create(name=NFC)
    jose, twin, lost = (Player.objects.create(name=name) for name in ("x", "y", "z"))
    # As older versions saved them: NFD (in any case, "ZOË" is Zoë's name), and a country
    # that no code names.
    Player.objects.filter(pk=jose.pk).update(name="Jose\u0301", club="Caffe\u0300")
    Player.objects.filter(pk=twin.pk).update(name="ZOE\u0308")
    Player.objects.filter(pk=lost.pk).update(country="XX")

    migration.names_to_nfc(apps, None)

    names = dict(Player.objects.values_list("pk", "name"))
    assert names[jose.pk] == "Jos\u00e9" and names[zoe.pk] == NFC
    assert Player.objects.get(pk=jose.pk).club == "Caff\u00e8"
    assert names[twin.pk] == "ZOE\u0308"  # kept as it was, not merged with Zoë
    report = capsys.readouterr().out
    assert f"#{twin.pk} 'ZOE\\u0308' would be #{zoe.pk}'s name 'ZO\\xcb'" in report
    assert f"#{lost.pk} 'z': 'XX'" in report
    assert "Jos" not in report


# --- countries --------------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["XX", "Italy", "ITA", "I1", "zz"])
def test_a_country_that_is_no_iso_code_is_refused_everywhere(alice, cup, typed):
    people = Player.objects.count()
    refused = f"{typed} is not a country: give its two-letter ISO 3166 code"
    with pytest.raises(LeagueError, match=refused):
        players.country_code(typed)
    with pytest.raises(LeagueError, match=refused):
        update_profile(
            alice, name="alice", club="", country=typed, language="en", is_bot_account=False
        )
    profile = {"name": "alice", "club": "", "country": typed, "language": "en"}
    page = logged_in(alice).post("/accounts/profile/", profile)
    assert page.status_code == 400 and "ISO 3166" in page.content.decode()
    with pytest.raises(ImportProblems, match=f"line 1: {refused}"):
        entry_import.check_rows([ImportRow(line=1, name="Carla", country=typed)])
    url = f"/api/events/{cup.slug}/entries/import/"
    answer = api(alice).post(url, {"rows": [{"name": "Carla", "country": typed}]}, format="json")
    assert answer.status_code == 400 and answer.json()["problems"][0].startswith(f"line 1: {typed}")
    assert Player.objects.count() == people + 1  # alice's own player, made by her profile page
    assert not Player.objects.filter(name="Carla").exists()
    assert Player.objects.get(user=alice).country == ""


def test_a_country_is_kept_as_its_code_and_shown_by_its_name(alice, cup):
    assert players.country_code(" it ") == "IT" and players.country_code("") == ""
    entry_import.import_entries(cup, [ImportRow(line=1, name="Carla", country="de")], by=alice)
    carla = Player.objects.get(name="Carla")
    assert carla.country == "DE"
    player_page = reverse("league:player", args=[carla.pk])
    shown = {
        language: Client(HTTP_ACCEPT_LANGUAGE=language).get(player_page).content.decode()
        for language in ("en", "de", "it", "ja")
    }
    assert "(Germany)" in shown["en"] and "(Deutschland)" in shown["de"]
    assert "(Germania)" in shown["it"] and "(\u30c9\u30a4\u30c4)" in shown["ja"]
    event_page = Client(HTTP_ACCEPT_LANGUAGE="it").get(reverse("league:event", args=[cup.slug]))
    assert '<span class="muted">Germania</span>' in event_page.content.decode()
    api_player = APIClient().get(f"/api/players/{carla.pk}/").json()
    assert api_player["country"] == "DE"  # the API keeps the code


# --- the reader's alphabet --------------------------------------------------------------------

NAMES = ["Zo\u00eb", "Luz", "\u0141ukasz", "Lukas", "\u00c9mile", "Eve", "emil"]
ALPHABETICAL = ["emil", "\u00c9mile", "Eve", "Lukas", "\u0141ukasz", "Luz", "Zo\u00eb"]


@pytest.mark.parametrize("language", ["en", "de", "it", "ja"])
def test_entries_are_listed_in_the_readers_alphabet(alice, cup, language):
    for name in NAMES:
        event_services.enter_player(cup, by=alice, name=name)
    client = logged_in(alice)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    html = client.get(reverse("league:entries", args=[cup.slug])).content.decode()
    assert re.findall(r'<tr data-player="([^"]+)"', html) == ALPHABETICAL
    event_page = client.get(reverse("league:event", args=[cup.slug]))
    assert [e.player.name for e in event_page.context["entries"]] == ALPHABETICAL
    with translation.override(language):
        assert sorted(NAMES) != ALPHABETICAL  # by code point, "Łukasz" came last
