"""Names people type (issue Trust II): every way in — sign-up, the profile, an organizer's entry
(page and API), the import, the event form and API — refuses line breaks, tabs and invisible
characters, keeps names in NFC, and refuses a new name that looks like an existing player's
(accounts.names, accounts.skeleton). Ordinary names, in any script, still pass.

alice organizes; ana is a player she entered (no account); bill has an account and a player.
Look-alikes are written with escapes, so each test says which character it is.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from accounts.skeleton import name_skeleton
from league.errors import LeagueError
from league.forms.events import EventForm
from league.models import Entry, Event, Player
from league.profile.services import update_profile
from league.services import entry_import, players
from league.services import events as event_services
from league.services.entry_import import ImportProblems, ImportRow
from tests.language import pattern
from tests.league.test_duplicate_setup import form_post

pytestmark = pytest.mark.django_db

User = get_user_model()

HIDDEN = {
    "carriage return": "Ana\rRossi",
    "line feed": "Ana\nRossi",
    "tab": "Ana\tRossi",
    "zero-width joiner": "An\u200da",
    "zero-width space": "An\u200ba",
    "right-to-left override": "\u202eanA",
    "first strong isolate": "Ana \u2068Rossi\u2069",
    "soft hyphen": "Ro\u00adssi",
    "byte order mark": "\ufeffAna",
    "line separator": "Ana\u2028Rossi",
    "Hangul filler": "Ana\u3164",
}
REFUSED = "A name cannot contain line breaks, tabs or invisible characters (found %(char)s)."
# Ordinary names: German, Italian, Japanese (kanji, hiragana, katakana, an ideographic space).
ORDINARY = [
    "J\u00fcrgen Wei\u00df",
    "Zo\u00eb Br\u00f6nt\u00eb",
    "Niccol\u00f2 dell'Anguillara",
    "Anna-Lena",
    "\u7530\u4e2d \u82b1\u5b50",
    "\u305f\u306a\u304b \u306f\u306a\u3053",
    "\u30bf\u30ca\u30ab\u30fb\u30cf\u30ca\u30b3",
    "\u5c71\u7530\u3000\u592a\u90ce",
]
# User names (letters, digits and @.+-_ only: Django's rule) in the same languages.
ORDINARY_USER_NAMES = [
    "J\u00fcrgen",
    "Niccol\u00f2",
    "\u7530\u4e2d\u82b1\u5b50",
    "\u305f\u306a\u304b",
]


@pytest.fixture(autouse=True)
def fresh_limits():
    """allauth's sign-up limits count in the cache, which outlives a test's rollback."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def ana(db) -> Player:
    return Player.objects.create(name="ana")


@pytest.fixture
def bill(db) -> Any:
    user = User.objects.create_user("bill", password="pw")
    Player.objects.create(name="Bill", user=user)
    return user


@pytest.fixture
def cup(alice) -> Event:
    event = event_services.create_event(alice, name="Cup", game="saichugen", rounds=2)
    event_services.publish_event(event, by=alice)
    return event


def sign_up(username: str) -> Any:
    data = {"username": username, "password1": "a long pass phrase"}
    return Client().post("/accounts/signup/", {**data, "password2": data["password1"]})


def rename(user: Any, name: str, club: str = "") -> Player:
    return update_profile(
        user, name=name, club=club, country="", language="en", is_bot_account=False
    )


def api(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


# --- hidden characters ------------------------------------------------------------------------


@pytest.mark.parametrize("typed", HIDDEN.values(), ids=HIDDEN.keys())
def test_every_service_refuses_a_hidden_character_and_changes_nothing(alice, bill, cup, typed):
    people, events = Player.objects.count(), Event.objects.count()
    for attempt in (
        lambda: players.player_named(typed),
        lambda: event_services.enter_player(cup, by=alice, name=typed),
        lambda: rename(bill, typed),
        lambda: rename(bill, "Bill", club=typed),
        lambda: event_services.create_event(alice, name=typed, game="saichugen"),
        lambda: event_services.update_event(cup, by=alice, name=typed),
    ):
        with pytest.raises(LeagueError, match="invisible characters"):
            attempt()
    for row in (ImportRow(line=1, name=typed), ImportRow(line=1, name="Carla", club=typed)):
        with pytest.raises(ImportProblems, match=r"line 1: .*invisible characters"):
            entry_import.check_rows([row])
    assert (Player.objects.count(), Event.objects.count()) == (people, events)
    assert Player.objects.get(user=bill).name == "Bill"
    assert Event.objects.get(pk=cup.pk).name == "Cup"


def test_the_message_names_the_character():
    with pytest.raises(LeagueError) as refused:
        players.player_named("An\u200da")
    assert "U+200D ZERO WIDTH JOINER" in str(refused.value)
    with pytest.raises(LeagueError, match=r"U\+000D CARRIAGE RETURN"):
        players.player_named("Ana\rRossi")
    with pytest.raises(LeagueError, match=r"U\+000A LINE FEED"):
        players.player_named("Ana\nRossi")


def test_an_import_with_several_problems_reads_as_one_sentence(alice, cup):
    rows = [ImportRow(line=1, name="Ana\nRossi"), ImportRow(line=2, name="Bo\tRossi")]
    with pytest.raises(ImportProblems) as refused:
        entry_import.check_rows(rows)
    assert ".;" not in str(refused.value) and "; line 2:" in str(refused.value)


def test_the_api_refuses_a_hidden_character_with_a_400(alice, cup):
    client = api(alice)
    made = client.post("/api/events/", {"name": "Cup\u202e", "game": "saichugen"}, format="json")
    assert made.status_code == 400 and "invisible characters" in made.json()["name"][0]
    entry = client.post(f"/api/events/{cup.slug}/entries/", {"player": "An\u200ba"}, format="json")
    assert entry.status_code == 400 and "invisible characters" in entry.json()["detail"]
    rows = [{"name": "Carla"}, {"name": "Ana\rRossi"}]
    imported = client.post(f"/api/events/{cup.slug}/entries/import/", {"rows": rows}, "json")
    assert imported.status_code == 400
    assert imported.json()["problems"][0].startswith("line 2: A name cannot contain")
    assert not Entry.objects.filter(event=cup).exists()
    assert not Event.objects.exclude(pk=cup.pk).exists()


def test_the_pages_show_the_refusal_beside_the_field(alice, bill):
    shown = pattern(REFUSED)
    answer = sign_up("bo\u200bb")
    assert shown.search(answer.content.decode())
    assert not User.objects.filter(username__startswith="bo").exists()
    client = Client()
    client.force_login(bill)
    data = {"name": "Bill\u202e", "club": "", "country": "", "language": "en"}
    answer = client.post("/accounts/profile/", data)
    assert answer.status_code == 400 and shown.search(answer.content.decode())
    assert Player.objects.get(user=bill).name == "Bill"
    form = EventForm(form_post("saichugen", name="Cup\rFinal", scoring="match"), game="saichugen")
    assert not form.is_valid() and "invisible characters" in form.errors["name"][0]


# --- NFC, and ordinary names ------------------------------------------------------------------


def test_ordinary_names_pass_and_are_kept_in_nfc(alice, bill, cup):
    nfd = "Jose\u0301 Mari\u0301a"
    nfc = unicodedata.normalize("NFC", nfd)
    made, created = players.player_named(nfc)
    assert created
    assert players.player_named(nfd) == (made, False)  # "é" typed either way is one name
    assert rename(bill, "Bille\u0301").name == "Bill\u00e9"
    event = event_services.create_event(alice, name="Cafe\u0301 cup", game="saichugen")
    assert event.name == "Caf\u00e9 cup"
    rows = entry_import.check_rows([ImportRow(line=1, name="Zoe\u0308", club="Caffe\u0300")])
    assert (rows[0].name, rows[0].club) == ("Zo\u00eb", "Caff\u00e8")
    assert sign_up("Rene\u0301").status_code == 302
    rene = User.objects.get(username="Ren\u00e9")
    assert Player.objects.get(user=rene).name == "Ren\u00e9"
    for name in ORDINARY:
        player, created = players.player_named(name)
        assert created and player.name == name
    for name in ORDINARY_USER_NAMES:
        assert sign_up(name).status_code == 302, name
        assert Player.objects.get(user__username=name).name == name
    for name in ORDINARY:  # and a rename to each: none looks like another
        assert rename(bill, f"{name} B.").name == f"{name} B."


# --- look-alikes ------------------------------------------------------------------------------

LOOK_ALIKES = {
    "Cyrillic a": ("ana", "\u0430na"),
    "Cyrillic capitals": ("ana", "\u0410NA"),
    "Greek capitals": ("ana", "\u0391\u039d\u0391"),
    "capital i for small L": ("Bill", "BiII"),
    "fullwidth": ("ana", "\uff41\uff4e\uff41"),
    "zero-width joiner": ("ana", "an\u200da"),
}


@pytest.mark.parametrize(("existing", "typed"), LOOK_ALIKES.values(), ids=LOOK_ALIKES.keys())
def test_a_new_name_that_looks_like_a_players_is_refused(alice, ana, bill, cup, existing, typed):
    carla = User.objects.create_user("carla", password="pw")
    players.player_for_user(carla)
    people = Player.objects.count()
    refused = r"too similar to an existing player's name|invisible characters"
    for attempt in (
        lambda: players.player_named(typed),
        lambda: event_services.enter_player(cup, by=alice, name=typed),
        lambda: rename(carla, typed),
    ):
        with pytest.raises(LeagueError, match=refused):
            attempt()
    with pytest.raises(ImportProblems, match=refused):
        entry_import.import_entries(cup, [ImportRow(line=1, name=typed)], by=alice)
    assert sign_up(typed).status_code == 200 and not User.objects.filter(username=typed)
    assert Player.objects.count() == people
    assert Player.objects.get(user=carla).name == "carla"


def test_the_bots_names_cannot_be_imitated(alice, cup):
    strong = players.bot_players(1, "strong")[0]
    assert strong.name == "Strong bot 1"
    with pytest.raises(LeagueError, match="too similar to an existing player's name"):
        players.player_named("Str\u03bfng bot 1")  # a Greek omicron
    with pytest.raises(LeagueError, match="too similar"):
        players.player_named("Strong bot l")  # a small L for the digit
    # A person who held a look-alike before the rules keeps it; the bots skip the name.
    Player.objects.create(name="B\u03bft 1")
    assert [bot.name for bot in players.bot_players(2)] == ["Bot 2", "Bot 3"]


def test_renaming_to_ones_own_look_alike_is_allowed(ana, bill):
    assert rename(bill, "BiII").name == "BiII"  # capital i's: it looks only like bill himself
    assert rename(bill, "BILL").name == "BILL"
    with pytest.raises(LeagueError, match="too similar"):
        rename(bill, "\u0430na")


def test_the_import_refuses_rows_that_look_like_each_other(alice, cup):
    with pytest.raises(ImportProblems) as refused:
        entry_import.parse_text("ana\nBruno\n\u0430na")
    assert refused.value.problems == ["line 3: \u0430na looks like the name on line 1"]


def test_the_skeleton_is_kept_with_the_name(bill):
    player = Player.objects.get(user=bill)
    assert player.name_skeleton == name_skeleton("Bill") == "bill"
    rename(bill, "Bill Rossi")
    assert Player.objects.get(pk=player.pk).name_skeleton == "bill rossi"


def test_an_account_without_a_player_keeps_its_name_from_look_alikes(alice, cup):
    """Staff and accounts made in the admin or by a command get their player on first use: a
    look-alike taken before would push the owner aside ("organizer-2") and pass for them."""
    boss = User.objects.create_superuser("organizer", password="pw")
    assert not Player.objects.filter(user=boss).exists()
    omicron = "\u03bfrganizer"  # a Greek omicron for the o
    assert sign_up(omicron).status_code == 200 and not User.objects.filter(username=omicron)
    for attempt in (
        lambda: players.player_named(omicron),
        lambda: event_services.enter_player(cup, by=alice, name="ORGANIZER"),
    ):
        with pytest.raises(LeagueError, match="too similar to an existing player's name"):
            attempt()
    assert players.player_for_user(boss).name == "organizer"


PASSING_FOR_A_BOT = ["Bot Bianca", "B0t Bruno", "B\u043et Bianca", "Strong bot 7", "Ana [bot]"]


@pytest.mark.parametrize("typed", PASSING_FOR_A_BOT)
def test_a_person_may_not_be_named_like_a_bot(alice, bill, cup, typed):
    people = Player.objects.count()
    for attempt in (
        lambda: players.player_named(typed),
        lambda: event_services.enter_player(cup, by=alice, name=typed),
        lambda: rename(bill, typed),
    ):
        with pytest.raises(LeagueError, match="kept for the bots"):
            attempt()
    assert Player.objects.count() == people and Player.objects.get(user=bill).name == "Bill"
    assert not Player.objects.filter(name=typed).exists()


def test_names_that_merely_contain_bot_and_bot_accounts_pass(bill):
    assert players.player_named("Abbott")[1] and players.player_named("Robot Wars")[1]
    helper = User.objects.create_user("helper", password="pw")
    players.player_for_user(helper)
    named = update_profile(
        helper, name="Helper bot", club="", country="", language="en", is_bot_account=True
    )
    assert named.name == "Helper bot" and named.is_bot


def test_the_site_has_an_icon(client):
    # The icon itself, not a redirect to /static/ (which uvicorn does not serve: a 404).
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg")
    assert 'rel="icon"' in client.get("/").content.decode()
