"""Organizer pages show only what the server would accept (league.services.actions): a closed
event's pages offer no Generate, Add, Withdraw, Edit or Correct; and every form shown on an
open event's pages, posted as it stands (a confirmation followed through), is accepted."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.models import Event, Round
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.results import record_result
from tests.home.page import parse
from tests.organizer_forms.conftest import Form, forms_of
from tests.organizers.conftest import enter

SHEET = {"deals": [{"scores": [8, 5, 3]}]}  # 3-5-8: tricks per seat
RECOUNT = {"deals": [{"scores": [7, 6, 3]}]}  # a correction must change something


def organizer_pages(scene: SimpleNamespace) -> list[str]:
    """Every page an organizer runs the scene's event from."""
    slug = scene.slug
    pages = [
        reverse("league:event", args=[slug]),
        reverse("league:entries", args=[slug]),
        reverse("league:standings", args=[slug]),
        reverse("league:event_edit", args=[slug]),
    ]
    for round_ in Round.objects.filter(event=scene.event).order_by("number"):
        pages.append(reverse("league:round", args=[slug, round_.number]))
        for fixture in round_.fixtures.order_by("number"):
            pages.append(reverse("league:fixture", args=[slug, fixture.pk]))
            if round_.status == Round.Status.PUBLISHED:
                pages.append(reverse("league:result", args=[slug, fixture.pk]))
    return pages


def event_forms(client: Any, scene: SimpleNamespace) -> list[Form]:
    """The forms of the organizer pages that act on the event (not the header's log-out)."""
    prefix = f"/events/{scene.slug}/"
    out = []
    for page in organizer_pages(scene):
        response = client.get(page)
        assert response.status_code == 200, page
        out += [f for f in forms_of(page, response.content) if f.action.startswith(prefix)]
    return out


def results_in(scene: SimpleNamespace) -> None:
    for fixture in scene.first.fixtures.all():
        record_result(fixture, by=scene.olga, sheet=SHEET)


def closed(scene: SimpleNamespace) -> SimpleNamespace:
    round_services.discard_draft(scene.draft, by=scene.olga)
    results_in(scene)
    event_services.close_event(scene.event, by=scene.olga)
    scene.event.refresh_from_db()
    assert scene.event.status == Event.Status.CLOSED
    return scene


# --- a closed event ---------------------------------------------------------------------------

# What a closed event's pages may still offer: a claim invitation is the player's, not the event's
# (claims.invite_to_claim takes it on a closed event too).
STILL_OPEN = ("/claim/",)
WRITE_LINKS = ("edit/", "result/", "entries/import/", "registration/", "rounds/new/", "/action/")


@pytest.mark.parametrize("who", ["olga", "cora"])
def test_a_closed_events_pages_offer_no_organizer_action(client, scene, who):
    closed(scene)
    client.force_login(getattr(scene, who))
    forms = [f for f in event_forms(client, scene) if not any(s in f.action for s in STILL_OPEN)]
    assert forms == [], "\n".join(map(str, forms))
    prefix = f"/events/{scene.slug}/"
    for page in organizer_pages(scene):
        html = client.get(page).content
        links = [h for h in parse(html).links if h.startswith(prefix)]
        assert not [h for h in links if any(w in h for w in WRITE_LINKS)], page
        text = html.decode()
        for label in ("Generate next round", "Add entry", "Withdraw…", "Edit settings",
                      "Correct the result", "Count this result", "Save"):  # fmt: skip
            assert f">{label}<" not in text, (page, label)


def test_a_closed_event_says_it_is_read_only(client, scene):
    closed(scene)
    client.force_login(scene.olga)
    for name in ("event", "entries", "event_edit"):
        page = client.get(reverse(f"league:{name}", args=[scene.slug])).content.decode()
        assert "This event is closed:" in page, name
    result = client.get(reverse("league:result", args=[scene.slug, scene.fixture.pk]))
    assert "this result can no longer change" in result.content.decode()


def test_a_closed_events_confirmation_pages_send_back_with_the_reason(client, scene):
    closed(scene)
    client.force_login(scene.olga)
    url = reverse("league:entry_action", args=[scene.slug, scene.dora_entry.pk])
    response = client.get(url, {"action": "withdraw"})
    assert response.status_code == 302
    assert [str(m) for m in get_messages(response.wsgi_request)] == ["this event is closed"]


def test_the_server_still_refuses_a_closed_events_buttons(client, scene):
    """Hidden is not the guard: the posts the open event's pages sent are refused now."""
    closed(scene)
    client.force_login(scene.olga)
    slug = scene.slug
    posts = [
        (reverse("league:round_generate", args=[slug]), {}),
        (reverse("league:entries", args=[slug]), {"player": "newcomer", "checked_in": "on"}),
        (reverse("league:entry_action", args=[slug, scene.dora_entry.pk]), {"action": "withdraw"}),
        (reverse("league:result", args=[slug, scene.fixture.pk]),
         {"sheet_text": json.dumps(SHEET), "version": 1, "reason": "typo"}),
    ]  # fmt: skip
    before = scene.event.round_set.count(), scene.event.entries.count()
    for url, data in posts:
        response = client.post(url, data, follow=True)
        assert "this event is closed" in response.content.decode().lower(), url
    assert (scene.event.round_set.count(), scene.event.entries.count()) == before
    assert scene.fixture.results.count() == 1


# --- an open event: every form shown is accepted ----------------------------------------------


def fill(form: Form, scene: SimpleNamespace) -> dict[str, Any]:
    """The values a person would type where the form leaves a blank."""
    data: dict[str, Any] = dict(form.fields)
    if {"first", "second"} <= set(form.choices):  # a swap: two players of different tables
        players = [v for v in form.choices["first"] if v]
        data["first"], data["second"] = players[0], players[-1]
    if "player" in form.blank:
        data["player"] = "walk-in"
    if form.action.endswith("/absent/") and "seats" not in data:
        data["seats"] = "0"  # "Mark absent": a person ticks who did not come
    correction = data.get("version", data.get("result-version", "0")) != "0"
    sheet = RECOUNT if correction else SHEET
    if "d0.tricks.0" in data:
        tricks = sheet["deals"][0]["scores"]
        data.update({f"d0.tricks.{seat}": str(n) for seat, n in enumerate(tricks)})
    elif "sheet_text" in data:
        data["sheet_text"] = json.dumps(sheet)
    for reason in ("reason", "result-reason"):
        if correction and reason in data:
            data[reason] = "counted again"
    return data


def accepted(response: Any) -> tuple[bool, str]:
    """A post is accepted when it is not an error: no error message, no form errors."""
    errors = [str(m) for m in get_messages(response.wsgi_request) if "error" in m.tags]
    html = response.content.decode() if response.status_code == 200 else ""
    bad = response.status_code >= 400 or errors or 'class="errorlist' in html
    return not bad, f"{response.status_code} {errors}"


def submit(client: Any, form: Form, scene: SimpleNamespace) -> Any:
    """Press the form's button; a GET to a confirmation page is followed by its POST."""
    data = fill(form, scene)
    if form.method == "post":
        return client.post(form.action, data)
    response = client.get(form.action, data)
    assert response.status_code == 200, f"{form}: the confirmation page refused ({response})"
    (confirm,) = [f for f in forms_of(form.action, response.content) if f.method == "post"
                  and f.action.startswith(f"/events/{scene.slug}/")]  # fmt: skip
    return client.post(confirm.action, fill(confirm, scene))


def walk(client: Any, scene: SimpleNamespace) -> set[str]:
    """Post every form of the organizer pages, each on the event as the pages showed it."""
    forms = event_forms(client, scene)
    for form in forms:
        with transaction.atomic():  # each button on the state the page showed, then undone
            ok, why = accepted(submit(client, form, scene))
            assert ok, f"{form} was shown but refused: {why}"
            transaction.set_rollback(True)
    return {form.label for form in forms}


def test_every_form_of_an_open_event_with_a_draft_round_is_accepted(client, scene):
    client.force_login(scene.olga)
    labels = walk(client, scene)
    shown = ("Swap", "Publish round…", "Discard draft…", "Add entry", "Check out", "Withdraw…",
             "Remove…", "Undo withdrawal", "Save", "Count this result")  # fmt: skip
    for label in shown:
        assert label in labels, label
    assert "Generate next round" not in labels  # round 2 is a draft: generating is refused


def test_every_form_is_accepted_once_the_draft_is_discarded(client, scene):
    round_services.discard_draft(scene.draft, by=scene.olga)
    client.force_login(scene.cora)
    labels = walk(client, scene)
    assert "Generate next round" in labels
    assert "Close event…" not in labels  # round 1 has no results yet


def test_every_form_is_accepted_once_every_result_is_in(client, scene):
    round_services.discard_draft(scene.draft, by=scene.olga)
    results_in(scene)
    client.force_login(scene.olga)
    labels = walk(client, scene)
    assert {"Generate next round", "Close event…"} <= labels
    assert "Count this result" not in labels and "Save correction" in labels


def test_a_refused_action_says_why_in_its_place(client, scene):
    client.force_login(scene.olga)
    page = client.get(reverse("league:event", args=[scene.slug])).content.decode()
    assert "round 2 is still a draft: publish or discard it first" in page
    assert "round 2 is a draft: publish or discard it before closing" in page


def test_the_pages_ask_the_rules_in_a_fixed_number_of_queries(client, scene):
    """The rules read the event once per page (league.services.actions.Facts), whatever the
    number of entries, withdrawn entries and tables."""
    client.force_login(scene.olga)

    def counts() -> list[int]:
        out = []
        for page in organizer_pages(scene):
            client.get(page)
            with CaptureQueriesContext(connection) as queries:
                assert client.get(page).status_code == 200
            out.append(len(queries))
        return out

    before = counts()
    names = [f"late-{n}" for n in range(12)]
    for player in enter(scene.event, names, scene.olga)[:5]:
        event_services.withdraw(scene.event.entries.get(player=player), by=scene.olga)
    assert counts() == before
