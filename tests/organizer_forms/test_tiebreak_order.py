"""The tie-break order the organizer chooses is the order kept: a numbered list of selects
(no script needed) that posts an ordered list, kept through create and edit, and the order the
standings break ties by."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from league.models import Event, Player
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.results import record_result
from league.services.standings import compute_rows
from league.standings import tiebreak_choices
from tests.home.page import parse
from tests.organizer_forms.conftest import forms_of

NAMES = [name for name, _label in tiebreak_choices()]

ORDERS = [
    ["lot", "total_payouts", "opponents_average_payout"],  # "lot" first, as the organizer did
    ["head_to_head", "wins"],
    list(reversed(NAMES)),
    ["wins"],
]


def create_form(client: Any, **changes: Any) -> dict[str, str]:
    """The create page's form as it stands (a 3-5-8 event), named "Order cup", with `changes`."""
    url = reverse("league:event_create") + "?game=three_five_eight"
    return {**page_form(client, url), "name": "Order cup", "rounds": "3", **changes}


def slots(order: list[str]) -> dict[str, str]:
    """The numbered selects set to `order`, the rest left blank."""
    return {f"tiebreaks_{i}": (order[i] if i < len(order) else "") for i in range(len(NAMES))}


def chosen_order(html: bytes) -> list[str]:
    """The order the page's selects show, 1st first (blank slots left out)."""
    (form,) = [f for f in forms_of("", html) if "tiebreaks_0" in f.fields]
    values = [form.fields[f"tiebreaks_{i}"] for i in range(len(NAMES))]
    return [v for v in values if v]


@pytest.fixture
def olga_client(client, olga):
    client.force_login(olga)
    return client


def page_form(client: Any, url: str) -> dict[str, str]:
    (form,) = [f for f in forms_of(url, client.get(url).content) if "name" in f.fields]
    return form.fields


def test_the_create_form_offers_numbered_selects_with_the_default_order(olga_client):
    url = reverse("league:event_create") + "?game=three_five_eight"
    html = olga_client.get(url).content
    chooser = parse(html).find(tag="ol", **{"data-field": "tiebreaks"})
    assert chooser is not None
    selects = chooser.find_all("select")
    assert [s.attrs["name"] for s in selects] == [f"tiebreaks_{i}" for i in range(len(NAMES))]
    assert selects[0].attrs["aria-label"] == "Tie-break 1"
    assert chosen_order(html) == event_services.DEFAULT_TIEBREAKS


@pytest.mark.parametrize("order", ORDERS, ids=lambda o: "-".join(o))
def test_any_order_round_trips_through_create_and_edit(olga_client, order):
    fields = create_form(olga_client, **slots(order))
    response = olga_client.post(reverse("league:event_create"), fields)
    assert response.status_code == 302, response.content.decode()[:3000]
    event = Event.objects.get(name="Order cup")
    assert event.tiebreaks == order

    edit = reverse("league:event_edit", args=[event.slug])
    assert chosen_order(olga_client.get(edit).content) == order  # shown as saved
    other = [n for n in reversed(NAMES) if n not in order[:1]][:3] + order[:1]
    response = olga_client.post(edit, {**page_form(olga_client, edit), **slots(other)})
    assert response.status_code == 302, response.content.decode()[:3000]
    event.refresh_from_db()
    assert event.tiebreaks == other
    assert chosen_order(olga_client.get(edit).content) == other


def test_saving_the_edit_form_unchanged_keeps_the_order(olga_client, olga):
    order = ["lot", "wins", "total_payouts"]
    event = event_services.create_event(
        olga, name="Kept", game="saichugen", rounds=2, deals_per_match=1, tiebreaks=order
    )
    edit = reverse("league:event_edit", args=[event.slug])
    assert olga_client.post(edit, page_form(olga_client, edit)).status_code == 302
    event.refresh_from_db()
    assert event.tiebreaks == order


def test_blank_slots_between_choices_close_up(olga_client):
    fields = create_form(olga_client, **slots(["", "wins", "", "lot"]))
    assert olga_client.post(reverse("league:event_create"), fields).status_code == 302
    assert Event.objects.get(name="Order cup").tiebreaks == ["wins", "lot"]


def test_a_tie_break_chosen_twice_is_refused_beside_the_field(olga_client):
    fields = create_form(olga_client, **slots(["lot", "wins", "lot"]))
    response = olga_client.post(reverse("league:event_create"), fields)
    assert response.status_code == 200
    assert "is chosen twice" in response.content.decode()
    assert not Event.objects.filter(name="Order cup").exists()


def test_an_unknown_tie_break_is_refused(olga_client):
    fields = create_form(olga_client, **slots(["luck"]))
    response = olga_client.post(reverse("league:event_create"), fields)
    assert response.status_code == 200
    assert "luck is not one of the choices" in response.content.decode()
    assert not Event.objects.exists()


def test_a_list_posted_in_one_field_keeps_its_order(olga_client):
    """An older client (or a script) posting `tiebreaks` several times: the order sent."""
    fields = create_form(olga_client, tiebreaks=["lot", "total_payouts"])
    fields = {k: v for k, v in fields.items() if not k.startswith("tiebreaks_")}
    assert olga_client.post(reverse("league:event_create"), fields).status_code == 302
    assert Event.objects.get(name="Order cup").tiebreaks == ["lot", "total_payouts"]


def _tied_event(olga: Any, order: list[str]) -> Event:
    """Six Saichugen players (raw payouts), one round of two tables: the two winners, the two
    middles and the two last are level on match points, with different payouts and lots, so
    the first tie-break decides between them."""
    event = event_services.create_event(
        olga, name="-".join(order), game="saichugen", rounds=2, deals_per_match=1,
        format="league", tiebreaks=order, seed=11, variant={"payout": "raw"},
    )  # fmt: skip
    for n in range(6):
        event_services.add_entry(event, Player.objects.create(name=f"{event.pk}-p{n}"), by=olga)
    round_ = round_services.generate_round(event, by=olga)
    round_services.publish_round(round_, by=olga, publish_event=True)
    scores = [[20, 25, 30], [20, 25, 40]]  # payouts -15, 0, 15 and -25, -10, 35
    for fixture, sheet in zip(round_.fixtures.order_by("number"), scores, strict=True):
        record_result(fixture, by=olga, sheet={"deals": [{"scores": sheet}]})
    event.refresh_from_db()
    return event


@pytest.mark.parametrize("order", [["lot", "total_payouts"], ["total_payouts", "lot"]])
def test_the_standings_break_ties_in_the_chosen_order(olga, order):
    event = _tied_event(olga, order)
    rows = compute_rows(event)
    for row in rows:  # each row's tie-break values are in the chosen order
        assert row["tiebreaks"][order.index("total_payouts")] == row["total_payouts"]
    first = order[0]
    by_points: dict[int, list[dict]] = {}
    for row in rows:
        by_points.setdefault(row["match_points"], []).append(row)
    decided = 0
    for group in by_points.values():
        if len(group) < 2:
            continue
        keys = [r["tiebreaks"][0] for r in group]  # ranked by the first tie-break, best first
        assert keys == sorted(keys, reverse=True), (first, group)
        decided += len(set(keys)) > 1
    assert decided, "the scene must leave players level on match points"
