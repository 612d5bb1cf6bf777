"""Who may use every organizer page and every API write, enumerated from the URLconf.

For each organizer URL of the pages (GET and POST) and each write of the API: anonymous is sent
to log in (pages) or answered 401 (API); a player of the event and another event's organizer get
403 and nothing in the database changes; a co-organizer is let through. A URL the matrix does
not know fails `test_every_url_is_in_the_matrix_or_public`, so a new page is covered as soon as
it exists: put it in the matrix (or, if anyone may use it, in PUBLIC with its reason).
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from gameplay import api as gameplay
from league.services import absences
from league.services import organizers as organizer_services
from league.services import rounds as round_services
from league.services.results import record_result
from tests.organizers.conftest import api, database, enter, make_event

pytestmark = pytest.mark.django_db

Request = tuple[str, str, dict[str, Any] | None]  # method, url, data
Builder = Callable[[SimpleNamespace], list[Request]]


def url(name: str, scene: SimpleNamespace, *args: Any) -> str:
    return reverse(f"league:{name}", args=[scene.slug, *args])


def fresh(scene: SimpleNamespace, *, publish: bool = True) -> Any:
    """Another event of olga's that cora co-organizes: three players, no round yet."""
    event = make_event(scene.olga, f"Fresh {'league' if publish else 'draft'}", publish=publish)
    organizer_services.add_co_organizer(event, "cora", by=scene.olga)
    enter(event, ["xavi", "yann", "zita"], scene.olga)
    return event


def dora_played(scene: SimpleNamespace) -> SimpleNamespace:
    """dora's table of round 1 has its result: an invitation to claim her may be made (an
    organizer vouches only for a player with a result, league.services.claims)."""
    record_result(scene.fixture, by=scene.olga, sheet={"deals": [{"scores": [10, 2, 4]}]})
    return scene


def absent_at(scene: SimpleNamespace) -> SimpleNamespace:
    """Round 1's table has a no-show at seat 0 (an absence its organizers may take back)."""
    absences.mark_absent(scene.fixture, by=scene.olga, seats=[0])
    return scene


def fresh_url(name: str, scene: SimpleNamespace, *, publish: bool = True) -> str:
    return reverse(f"league:{name}", args=[fresh(scene, publish=publish).slug])


def duplicate_draft(scene: SimpleNamespace) -> Any:
    """A duplicate event of olga's that cora co-organizes, its round 1 a draft of six players
    (two tables, one section)."""
    event = make_event(
        scene.olga, "Duplicate cup", scoring="duplicate", variant={"fixed_length": True}
    )
    organizer_services.add_co_organizer(event, "cora", by=scene.olga)
    enter(event, ["dx1", "dx2", "dx3", "dx4", "dx5", "dx6"], scene.olga)
    round_services.generate_round(event, by=scene.olga)
    return event


def a_deal_set() -> list[dict[str, Any]]:
    """A deal set for `duplicate_draft`'s matches (one deal of fixed-length 3-5-8)."""
    deals = gameplay.deal_set("three_five_eight", {"fixed_length": True}, 1, seed="a pack")
    return [{"hands": d["hands"], "stock": d["stock"]} for d in deals]


def duplicate_url(name: str, scene: SimpleNamespace, *args: Any) -> str:
    return reverse(f"league:{name}", args=[duplicate_draft(scene).slug, *args])


# Anyone may use these (each decides itself what a visitor sees or may do).
PUBLIC = {
    "events": "the public list",
    "event": "an event's page (drafts: 404 for outsiders)",
    "round": "a round's page",
    "round_sheets": "a round's score sheets, to whoever may see the round (tests/print/)",
    "round_hands": "a duplicate round's hand records: the organizers, then everyone once a "
    "section is complete (tests/league/test_duplicate_setup.py)",
    "traveller": "a duplicate round's traveller of one deal, to whoever may see the round; a "
    "section still being played is withheld but from organizers (test_duplicate_scoring.py)",
    "travellers_csv": "a duplicate round's travellers as CSV, as public as the traveller pages "
    "(tests/league/test_duplicate_scoring.py)",
    "fixture": "a table's page",
    "fixture_action": "a table's players propose and accept times (tested by the schedule's tests)",
    "standings": "public",
    "bracket": "a knockout's bracket, as public as its rounds (drafts: 404 for outsiders; "
    "tests/league/test_bracket.py)",
    "standings_csv": "public",
    "ledger_csv": "public",
    "ledger": "the ledger as a page, as public as ledger.csv (tests/event_help/)",
    "event_help": "how the event's standings work (drafts: 404 for outsiders; tests/event_help/)",
    "player": "public",
    "report": "any account reports a player",
    "ratings_index": "public",
    "ratings": "public",
    "notices": "an account's own notices",
    "notices_read_all": "an account's own notices",
    "notice_settings": "an account's own switches",
    "notice_open": "an account's own notice",
    "notice_read": "an account's own notice",
    "unsubscribe": "a signed link from a mail",
    "push_subscribe": "an account's own browser subscription (tests/notices_push/)",
    "push_unsubscribe": "an account's own browser subscription (tests/notices_push/)",
    "signup": "a player signs up (test_registration)",
    "signup_leave": "a player withdraws themselves (test_registration)",
    "signup_check_in": "a player checks themselves in (test_registration)",
    # A table's players and the event's organizers both use these; the service decides per
    # action who may (tests/results/).
    "result_check": "a score grid's live check, for the table's players and its organizers",
    "table_submit": "a table's players submit their result",
    "submission_action": "players confirm or reject a submitted grid, organizers approve it",
}

# Every organizer page: the requests an organizer may make (GET and POST where the page has
# them). Builders may make what they need (a fresh event) before the database is compared.
PAGES: dict[str, Builder] = {
    "event_edit": lambda s: [
        ("get", url("event_edit", s), None),
        ("post", url("event_edit", s), {}),
    ],
    "event_publish": lambda s: (lambda u: [("get", u, None), ("post", u, {})])(
        fresh_url("event_publish", s, publish=False)
    ),
    "event_close": lambda s: (lambda u: [("get", u, None), ("post", u, {})])(
        fresh_url("event_close", s)
    ),
    "event_delete": lambda s: (lambda u: [("get", u, None), ("post", u, {})])(
        fresh_url("event_delete", s, publish=False)
    ),
    "entries": lambda s: [
        ("get", url("entries", s), None),
        ("post", url("entries", s), {"player": "zoe", "checked_in": "on"}),
    ],
    "entry_action": lambda s: [
        ("get", url("entry_action", s, s.dora_entry.pk) + "?action=withdraw", None),
        ("post", url("entry_action", s, s.dora_entry.pk), {"action": "withdraw"}),
    ],
    "claim_invite": lambda s: [("post", url("claim_invite", s, s.dora_entry.pk), {})],
    "entries_import": lambda s: [
        ("get", url("entries_import", s), None),
        ("post", url("entries_import", s), {"text": "zed\nyan,Club B,FR"}),
    ],
    "organizers": lambda s: [
        ("get", url("organizers", s), None),
        ("post", url("organizers", s), {"name": "pat"}),
    ],
    "organizer_remove": lambda s: [
        ("get", url("organizer_remove", s, s.cora.pk), None),
        ("post", url("organizer_remove", s, s.cora.pk), {}),
    ],
    "registration": lambda s: [
        ("get", url("registration", s), None),
        ("post", url("registration", s), {"signup_open": "on", "capacity": "20"}),
    ],
    "invitation": lambda s: [
        ("get", url("invitation", s), None),
        ("post", url("invitation", s), {"action": "new"}),
    ],
    "check_in_window": lambda s: (lambda u: [("get", u, None), ("post", u, {"action": "open"})])(
        fresh_url("check_in_window", s)
    ),
    "round_generate": lambda s: [("post", fresh_url("round_generate", s), {})],
    "round_action": lambda s: [
        ("get", url("round_action", s, 2) + "?action=publish", None),
        ("post", url("round_action", s, 2), {"action": "discard"}),
    ],
    "round_sections": lambda s: (lambda u: [("post", u, {"table_1": "1", "table_2": "1"})])(
        duplicate_url("round_sections", s, 1)
    ),
    "section_deals": lambda s: (lambda u: [("get", u, None), ("post", u, {"deals_text": "[]"})])(
        duplicate_url("section_deals", s, 1, 1)
    ),
    "result": lambda s: [
        ("get", url("result", s, s.fixture.pk), None),
        ("post", url("result", s, s.fixture.pk), {"version": 0}),
    ],
    "round_schedule": lambda s: [
        ("post", url("round_schedule", s, 2), {"starts_at": "", "deadline": ""})
    ],
    "fixture_absent": lambda s: [
        ("get", url("fixture_absent", s, s.fixture.pk) + "?seats=0&after_deal=0", None),
        ("post", url("fixture_absent", s, s.fixture.pk), {"seats": "0", "after_deal": "0"}),
    ],
    "fixture_absent_undo": lambda s: (lambda u: [("get", u, None), ("post", u, {})])(
        url("fixture_absent_undo", absent_at(s), s.fixture.pk)
    ),
}


def league_url_names() -> set[str]:
    for entry in get_resolver().url_patterns:
        if isinstance(entry, URLResolver) and entry.namespace == "league":
            return {p.name for p in entry.url_patterns if isinstance(p, URLPattern)}
    raise AssertionError("no league URLs")


def test_every_url_is_in_the_matrix_or_public():
    names = league_url_names()
    unknown = names - set(PUBLIC) - set(PAGES) - {"event_create"}
    assert not unknown, f"organizer pages missing from the authorization matrix: {unknown}"
    assert set(PAGES) <= names and set(PUBLIC) <= names  # the matrix names no page that is gone


def client_of(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def send(client: Any, request: Request) -> Any:
    method, address, data = request
    return getattr(client, method)(address, data or {})


@pytest.mark.parametrize("page", PAGES)
def test_anonymous_visitors_are_sent_to_log_in(scene, page):
    for request in PAGES[page](scene):
        before = database()
        response = send(client_of(None), request)
        assert response.status_code == 302, request
        assert response["Location"].startswith(reverse("login")), request
        assert database() == before, request


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("who", ["pat", "otto"])
def test_a_player_and_another_events_organizer_are_refused_and_change_nothing(
    scene, request, page, who
):
    client = client_of(request.getfixturevalue(who))
    for req in PAGES[page](scene):
        before = database()
        response = send(client, req)
        assert response.status_code == 403, (who, req, response.status_code)
        assert database() == before, (who, req)


@pytest.mark.parametrize("page", PAGES)
def test_a_co_organizer_may_use_every_page(scene, cora, page):
    client = client_of(cora)
    requests = PAGES[page](scene)
    for req in requests:
        response = send(client, req)
        assert response.status_code in (200, 302), (req, response.status_code)
        if response.status_code == 302:
            assert not response["Location"].startswith(reverse("login")), req
    # A method the matrix leaves out is no page at all (405): nothing goes untested.
    address = requests[0][1]
    listed = {method for method, _url, _data in requests}
    for method in {"get", "post"} - listed:
        assert getattr(client, method)(address).status_code == 405, (page, method)


def test_creating_an_event_needs_the_role(client, scene, pat, cora, otto):
    page = reverse("league:event_create") + "?game=saichugen"
    assert client.get(page).status_code == 302
    for who in (pat, cora):  # cora co-organizes, but holds no role of her own
        before = database()
        other = client_of(who)
        assert other.get(page).status_code == 403
        assert other.post(page, {"name": "Mine", "game": "saichugen"}).status_code == 403
        assert database() == before
    assert client_of(otto).get(page).status_code == 200


# --- the API ----------------------------------------------------------------------------------

API_BASE = "/api/events/{slug}/"


def a(scene: SimpleNamespace, path: str = "", slug: str | None = None) -> str:
    return API_BASE.format(slug=slug or scene.slug) + path


# Every organizer write of the API: (method, url, body) a co-organizer may send.
API: dict[tuple[str, str], Callable[[SimpleNamespace], Request]] = {
    ("event", "delete"): lambda s: ("delete", a(s, slug=fresh(s, publish=False).slug), None),
    ("event", "patch"): lambda s: ("patch", a(s), {"name": "Renamed", "rounds": 6}),
    ("event-publish", "post"): lambda s: (
        "post",
        a(s, "publish/", fresh(s, publish=False).slug),
        None,
    ),
    ("event-close", "post"): lambda s: ("post", a(s, "close/", fresh(s).slug), None),
    ("entries", "post"): lambda s: ("post", a(s, "entries/"), {"player": "zoe"}),
    ("entries-import", "post"): lambda s: (
        "post",
        a(s, "entries/import/"),
        {"rows": [{"name": "zed"}, {"name": "yan", "club": "B"}]},
    ),
    ("entry", "delete"): lambda s: ("delete", a(s, f"entries/{s.ivy_entry.pk}/"), None),
    ("entry-reinstate", "post"): lambda s: (
        "post",
        a(s, f"entries/{s.jo_entry.pk}/reinstate/"),
        None,
    ),
    ("entry-claim-invitation", "post"): lambda s: (
        "post",
        a(s, f"entries/{dora_played(s).dora_entry.pk}/claim-invitation/"),
        None,
    ),
    ("entry-check-in", "post"): lambda s: (
        "post",
        a(s, f"entries/{s.dora_entry.pk}/check-in/"),
        {"checked_in": False},
    ),
    ("entry-withdraw", "post"): lambda s: (
        "post",
        a(s, f"entries/{s.dora_entry.pk}/withdraw/"),
        None,
    ),
    ("organizers", "post"): lambda s: ("post", a(s, "organizers/"), {"name": "pat"}),
    ("organizer", "delete"): lambda s: ("delete", a(s, f"organizers/{s.cora.pk}/"), None),
    ("registration", "patch"): lambda s: (
        "patch",
        a(s, "registration/"),
        {"signup_open": True, "capacity": 12},
    ),
    ("registration-invitation", "post"): lambda s: (
        "post",
        a(s, "registration/invitation/"),
        None,
    ),
    ("registration-invitation", "delete"): lambda s: (
        "delete",
        a(s, "registration/invitation/"),
        None,
    ),
    ("check-in-window", "post"): lambda s: (
        "post",
        a(s, "check-in-window/", fresh(s).slug),
        {"open": True},
    ),
    ("rounds", "post"): lambda s: ("post", a(s, "rounds/", fresh(s).slug), None),
    ("round", "delete"): lambda s: ("delete", a(s, "rounds/2/"), None),
    ("round-swap", "post"): lambda s: (
        "post",
        a(s, "rounds/2/swap/"),
        {"first": s.fritz.pk, "second": s.gus.pk},
    ),
    ("round-sections", "post"): lambda s: (
        "post",
        a(s, "rounds/1/sections/", duplicate_draft(s).slug),
        {"sections": [[1, 2]]},
    ),
    ("section-deals", "put"): lambda s: (
        "put",
        a(s, "rounds/1/sections/1/deals/", duplicate_draft(s).slug),
        {"deals": a_deal_set()},
    ),
    ("section-deals", "delete"): lambda s: (
        "delete",
        a(s, "rounds/1/sections/1/deals/", duplicate_draft(s).slug),
        None,
    ),
    ("round-publish", "post"): lambda s: ("post", a(s, "rounds/2/publish/"), None),
    ("round-schedule", "post"): lambda s: (
        "post",
        a(s, "rounds/2/schedule/"),
        {"starts_at": None, "deadline": None},
    ),
    ("fixture-result", "post"): lambda s: (
        "post",
        a(s, f"fixtures/{s.fixture.pk}/result/"),
        {"sheet": {"deals": [{"scores": [10, 2, 4]}]}},
    ),
    ("fixture-absent", "post"): lambda s: (
        "post",
        a(s, f"fixtures/{s.fixture.pk}/absent/"),
        {"seats": [0], "after_deal": None},
    ),
    ("fixture-absent", "delete"): lambda s: (
        "delete",
        a(absent_at(s), f"fixtures/{s.fixture.pk}/absent/"),
        None,
    ),
}

# Writes any account makes for itself, tested where the feature is (the service decides).
API_PLAYER_WRITES = {
    ("signup", "post"),
    ("signup", "delete"),
    ("signup-check-in", "post"),
    ("fixture-proposals", "post"),
    ("proposal-accept", "post"),
    ("fixture-open", "post"),
}
WRITES = ("post", "put", "patch", "delete")


def api_writes() -> set[tuple[str, str]]:
    for entry in get_resolver().url_patterns:
        if isinstance(entry, URLResolver) and entry.namespace == "league-api":
            return {
                (p.name, method)
                for p in entry.url_patterns
                if isinstance(p, URLPattern)
                for method in WRITES
                if hasattr(p.callback.view_class, method)
            }
    raise AssertionError("no league API")


def test_every_api_write_is_in_the_matrix():
    writes = api_writes() - {("events", "post")}  # creating: the role (below)
    unknown = writes - set(API) - API_PLAYER_WRITES
    assert not unknown, f"API writes missing from the authorization matrix: {unknown}"
    assert set(API) <= writes


def call(client: Any, request: Request) -> Any:
    method, address, data = request
    return getattr(client, method)(address, data, format="json")


@pytest.mark.parametrize("write", API, ids=lambda w: f"{w[1]} {w[0]}")
def test_the_api_asks_anonymous_for_credentials(scene, write):
    request = API[write](scene)
    before = database()
    response = call(api(), request)
    assert response.status_code == 401, response.content
    assert database() == before


@pytest.mark.parametrize("write", API, ids=lambda w: f"{w[1]} {w[0]}")
@pytest.mark.parametrize("who", ["pat", "otto"])
def test_the_api_refuses_a_player_and_another_events_organizer(scene, request, write, who):
    req = API[write](scene)
    before = database()
    response = call(api(request.getfixturevalue(who)), req)
    assert response.status_code == 403, (who, response.content)
    assert database() == before


@pytest.mark.parametrize("write", API, ids=lambda w: f"{w[1]} {w[0]}")
def test_the_api_lets_a_co_organizer_through(scene, cora, write):
    response = call(api(cora), API[write](scene))
    assert response.status_code in (200, 201, 204), response.content


def test_creating_an_event_through_the_api_needs_the_role(scene, pat, cora, otto):
    body = {"name": "Mine", "game": "saichugen"}
    assert call(api(), ("post", "/api/events/", body)).status_code == 401
    for who in (pat, cora):
        before = database()
        assert call(api(who), ("post", "/api/events/", body)).status_code == 403
        assert database() == before
    assert call(api(otto), ("post", "/api/events/", body)).status_code == 201
