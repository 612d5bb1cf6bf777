"""Setting up a duplicate event (issue 21, shared/spec/duplicate.md; docs/league.md "Duplicate
events"): the scoring's rules, sections, the secret seed or uploaded deals of each section at
publishing, the printable hand records, and that the seed never leaves the database."""

from __future__ import annotations

import json
import logging
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from gameplay import api as gameplay
from gameplay.models import Table
from games import catalogue
from league.errors import LeagueError
from league.forms.events import EventForm
from league.models import Event, Fixture, Round, Section
from league.services import events as event_services
from league.services import rounds as round_services
from league.services import sections as section_services
from league.services.players import player_for_user

pytestmark = pytest.mark.django_db

GAME = "saichugen"  # three seats; every variant plays in duplicate
FIXED_358 = {"fixed_length": True}


def duplicate_event(alice, *, players: int = 6, deals: int = 2, **fields) -> Event:
    fields = {
        "name": "Same cards",
        "game": GAME,
        "format": "league",
        "rounds": 3,
        "deals_per_match": deals,
        "scoring": "duplicate",
        **fields,
    }
    event = event_services.create_event(alice, **fields)
    event_services.publish_event(event, by=alice)
    event.refresh_from_db()
    for n in range(players):
        user = get_user_model().objects.create_user(f"{event.slug}-{n}", password="pw")
        event_services.add_entry(event, player_for_user(user), by=alice, checked_in=True)
    return event


def tables_of(round_: Round) -> dict[int, Table]:
    """Each fixture number's online table."""
    fixtures = round_.fixtures.order_by("number")
    return {f.number: Table.objects.get(pk=f.table_ref) for f in fixtures}


def dealt(event: Event, table: Table) -> list[dict]:
    """What a table is dealt (hands and stock of every deal), from its own seed and deals."""
    deals = gameplay.deal_set(
        event.game, event.variant, event.deals_per_match, seed=table.seed, deals=table.deals
    )
    return [{"hands": d["hands"], "stock": d["stock"]} for d in deals]


def a_deal_set(event: Event, seed: str = "a pack dealt by hand") -> list[dict]:
    deals = gameplay.deal_set(event.game, event.variant, event.deals_per_match, seed=seed)
    return [{"hands": d["hands"], "stock": d["stock"]} for d in deals]


# --- the event's scoring --------------------------------------------------------------------


def test_duplicate_is_for_league_and_swiss_events_only(alice):
    for fmt in ("league", "swiss"):
        event = event_services.create_event(
            alice, name=f"d {fmt}", game=GAME, format=fmt, scoring="duplicate"
        )
        assert event.is_duplicate
    with pytest.raises(LeagueError, match="Knockout events cannot be scored in duplicate"):
        event_services.create_event(
            alice, name="d ko", game=GAME, format="knockout", scoring="duplicate"
        )
    assert not Event.objects.filter(name="d ko").exists()


def test_the_format_registry_says_which_formats_may_be_duplicate():
    from league.scheduling.formats import get_format

    assert get_format("league").supports_duplicate and get_format("swiss").supports_duplicate
    assert not get_format("knockout").supports_duplicate
    assert event_services.duplicate_formats() == ["league", "swiss"]


def test_a_variant_gameplay_refuses_is_refused_with_its_message(alice):
    why = gameplay.duplicate_problem("three_five_eight", {})
    assert why
    with pytest.raises(LeagueError) as refused:
        event_services.create_event(
            alice, name="358", game="three_five_eight", format="swiss", scoring="duplicate"
        )
    assert str(refused.value) == why
    assert not Event.objects.filter(name="358").exists()
    event = event_services.create_event(
        alice,
        name="358 fixed",
        game="three_five_eight",
        variant=FIXED_358,
        format="swiss",
        scoring="duplicate",
    )
    assert event.is_duplicate and event.variant["fixed_length"] is True


def form_post(game: str, **fields) -> dict:
    """The event form as a browser posts it: the game's default variant, checkboxes ticked."""
    variant = {
        f"variant__{name}": ("on" if value is True else value)
        for name, value in catalogue.game(game).defaults.items()
        if value is not False
    }
    return {"name": "Form", "kind": "tournament", "format": "swiss", "rounds": 3,
            "deals_per_match": 1, "leftover": "bye", "bye_match_points": 1,
            "seconds_per_move": 60, "on_timeout": "default", "scoring": "duplicate",
            "duplicate_rank": "total", **variant, **fields}  # fmt: skip


def test_the_form_shows_the_refusal_beside_the_scoring_field(alice):
    form = EventForm(form_post(GAME, format="knockout"), game=GAME)
    assert not form.is_valid()
    assert "cannot be scored in duplicate" in " ".join(form.errors["scoring"])
    form = EventForm(form_post("three_five_eight"), game="three_five_eight")
    assert not form.is_valid()
    assert form.errors["scoring"] == [gameplay.duplicate_problem("three_five_eight", {})]
    fixed = form_post("three_five_eight", variant__fixed_length="on")
    assert EventForm(fixed, game="three_five_eight").is_valid()
    assert EventForm(form_post(GAME), game=GAME).is_valid()


def test_the_api_refuses_a_knockout_in_duplicate_with_a_field_error(alice):
    client = APIClient()
    client.force_login(alice)
    body = {"name": "Api", "game": GAME, "format": "knockout", "scoring": "duplicate"}
    response = client.post("/api/events/", body, format="json")
    assert response.status_code == 400
    assert "scoring" in response.json()
    assert not Event.objects.filter(name="Api").exists()
    body = {**body, "format": "swiss", "duplicate_rank": "percentage"}
    response = client.post("/api/events/", body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["scoring"] == "duplicate"
    assert response.json()["duplicate_rank"] == "percentage"


def test_scoring_is_fixed_once_a_round_exists_but_the_rank_may_change(alice):
    event = duplicate_event(alice)
    event_services.update_event(event, by=alice, scoring="match")  # no round yet: it may
    event_services.update_event(event, by=alice, scoring="duplicate")
    round_services.generate_round(event, by=alice)
    event.refresh_from_db()
    with pytest.raises(LeagueError, match="scoring cannot change once rounds exist"):
        event_services.update_event(event, by=alice, scoring="match")
    event_services.update_event(event, by=alice, duplicate_rank="percentage")
    event.refresh_from_db()
    assert event.scoring == "duplicate" and event.duplicate_rank == "percentage"
    form = EventForm(instance=event, game=event.game)
    assert form.fields["scoring"].disabled and not form.fields["duplicate_rank"].disabled


# --- sections --------------------------------------------------------------------------------


def test_a_duplicate_round_gets_one_section_of_every_table(alice):
    event = duplicate_event(alice, players=9)
    round_ = round_services.generate_round(event, by=alice)
    (section,) = round_.sections.all()
    assert section.number == 1 and not section.seed and section.deals is None
    assert set(round_.fixtures.values_list("section", flat=True)) == {section.pk}
    assert round_.fixtures.count() == 3


def test_a_match_points_round_has_no_sections(alice):
    event = duplicate_event(alice, scoring="match")
    round_ = round_services.generate_round(event, by=alice)
    assert not round_.sections.exists()
    assert not round_.fixtures.filter(section__isnull=False).exists()


def test_an_organizer_splits_a_draft_round_into_sections_of_two_tables_or_more(alice):
    event = duplicate_event(alice, players=15)  # five tables
    round_ = round_services.generate_round(event, by=alice)
    made = section_services.split_sections(round_, [[1, 3], [2, 4, 5]], by=alice)
    assert [s.number for s in made] == [1, 2]
    by_section = {
        s.number: sorted(s.fixtures.values_list("number", flat=True)) for s in round_.sections.all()
    }
    assert by_section == {1: [1, 3], 2: [2, 4, 5]}
    section_services.split_sections(round_, [[1, 2, 3, 4, 5]], by=alice)  # back to one
    assert list(round_.sections.values_list("number", flat=True)) == [1]


@pytest.mark.parametrize(
    ("groups", "message"),
    [
        ([[1], [2, 3, 4]], "at least 2 tables"),
        ([[1, 2], [2, 3, 4]], "table 2 is in two sections"),
        ([[1, 2, 4], [3]], "section 2 has 1 table"),
        ([[1, 2]], "every table needs a section: 3, 4"),
        ([[1, 2], [3, 9]], "has no table 9"),
        ([], "lists of table numbers"),
        ([["1", 2]], "lists of table numbers"),
        ("1,2", "lists of table numbers"),
    ],
)
def test_a_bad_split_is_refused_and_changes_nothing(alice, groups, message):
    event = duplicate_event(alice, players=12)  # four tables
    round_ = round_services.generate_round(event, by=alice)
    before = list(Fixture.objects.filter(round=round_).values_list("number", "section"))
    with pytest.raises(LeagueError, match=message):
        section_services.split_sections(round_, groups, by=alice)
    assert list(Fixture.objects.filter(round=round_).values_list("number", "section")) == before
    assert round_.sections.count() == 1


def test_splitting_is_for_organizers_of_a_duplicate_draft_round(alice, bob):
    event = duplicate_event(alice, players=12)
    round_ = round_services.generate_round(event, by=alice)
    with pytest.raises(PermissionDenied):
        section_services.split_sections(round_, [[1, 2], [3, 4]], by=bob)
    round_services.publish_round(round_, by=alice)
    with pytest.raises(LeagueError, match="published round cannot change"):
        section_services.split_sections(round_, [[1, 2], [3, 4]], by=alice)
    other = duplicate_event(alice, players=12, scoring="match", name="Plain")
    plain = round_services.generate_round(other, by=alice)
    with pytest.raises(LeagueError, match="only a duplicate event"):
        section_services.split_sections(plain, [[1, 2], [3, 4]], by=alice)


def test_a_section_keeping_its_number_keeps_its_deal_set(alice):
    event = duplicate_event(alice, players=12)
    round_ = round_services.generate_round(event, by=alice)
    section_services.split_sections(round_, [[1, 2], [3, 4]], by=alice)
    first, second = round_.sections.order_by("number")
    section_services.upload_deals(first, a_deal_set(event, "one"), by=alice)
    section_services.upload_deals(second, a_deal_set(event, "two"), by=alice)
    section_services.split_sections(round_, [[2, 3], [1, 4]], by=alice)
    first.refresh_from_db()
    assert first.deals == a_deal_set(event, "one")
    section_services.split_sections(round_, [[1, 2, 3, 4]], by=alice)
    assert not Section.objects.filter(pk=second.pk).exists()  # with its deal set


def test_the_round_page_offers_the_split_and_the_form_posts_it(client, alice):
    event = duplicate_event(alice, players=12)
    round_ = round_services.generate_round(event, by=alice)
    client.force_login(alice)
    page = client.get(reverse("league:round", args=[event.slug, 1])).content.decode()
    assert 'name="table_4"' in page and "Set the sections" in page
    url = reverse("league:round_sections", args=[event.slug, 1])
    post = {"table_1": "1", "table_2": "2", "table_3": "1", "table_4": "2"}
    response = client.post(url, post)
    assert response.status_code == 302
    by_section = {
        s.number: sorted(s.fixtures.values_list("number", flat=True)) for s in round_.sections.all()
    }
    assert by_section == {1: [1, 3], 2: [2, 4]}
    response = client.post(url, {**post, "table_2": "1"}, follow=True)  # section 2 of one
    assert "at least 2 tables" in response.content.decode()
    assert sorted(round_.sections.get(number=2).fixtures.values_list("number", flat=True)) == [
        2,
        4,
    ]


# --- publishing: the same deals at every table of a section -----------------------------------


def test_every_table_of_a_section_gets_the_same_secret_seed(alice):
    event = duplicate_event(alice, players=12)
    round_ = round_services.generate_round(event, by=alice)
    section_services.split_sections(round_, [[1, 3], [2, 4]], by=alice)
    round_services.publish_round(round_, by=alice)
    tables = tables_of(round_)
    first, second = round_.sections.order_by("number")
    assert re.fullmatch(r"[0-9a-f]{32}", first.seed) and re.fullmatch(r"[0-9a-f]{32}", second.seed)
    assert first.seed != second.seed
    assert tables[1].seed == tables[3].seed == first.seed
    assert tables[2].seed == tables[4].seed == second.seed
    assert dealt(event, tables[1]) == dealt(event, tables[3])
    assert dealt(event, tables[1]) != dealt(event, tables[2])
    for table in tables.values():
        assert table.embargoed and not table.allow_spectators
        assert [s.number for s in table.seats.order_by("number")] == [0, 1, 2]
    # the next round: deal sets of its own
    for fixture in round_.fixtures.all():
        from league.services.results import record_result
        from tests.league.conftest import record_for

        record_result(fixture, by=alice, record=record_for(fixture))
    later = round_services.generate_round(event, by=alice)
    round_services.publish_round(later, by=alice)
    assert later.sections.get().seed not in {first.seed, second.seed}
    assert dealt(event, tables_of(later)[1]) not in (
        dealt(event, tables[1]),
        dealt(event, tables[2]),
    )


def test_a_match_points_table_keeps_a_seed_of_its_own(alice):
    event = duplicate_event(alice, scoring="match")
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    tables = tables_of(round_)
    assert tables[1].seed != tables[2].seed
    assert not tables[1].embargoed and tables[1].allow_spectators


def test_uploaded_deals_are_dealt_at_every_table_with_the_same_fresh_salts(alice):
    event = duplicate_event(alice, players=6, deals=2)
    round_ = round_services.generate_round(event, by=alice)
    section = round_.sections.get()
    mine = a_deal_set(event)
    section_services.upload_deals(section, mine, by=alice)
    round_services.publish_round(round_, by=alice)
    section.refresh_from_db()
    assert section.seed == ""
    salts = [d["salt"] for d in section.deals]
    assert all(re.fullmatch(r"[0-9a-f]{32}", s) for s in salts) and len(set(salts)) == 2
    tables = tables_of(round_)
    assert tables[1].deals == tables[2].deals == section.deals
    assert dealt(event, tables[1]) == dealt(event, tables[2]) == mine
    commitments = gameplay.deal_set(
        event.game, event.variant, 2, seed=tables[1].seed, deals=tables[1].deals
    )
    assert all(d["commitment"] for d in commitments)
    assert commitments == gameplay.deal_set(
        event.game, event.variant, 2, seed=tables[2].seed, deals=tables[2].deals
    )


def test_an_asynchronous_table_opened_later_gets_its_sections_deals(alice):
    from league.services import schedule

    event = duplicate_event(alice, asynchronous=True)
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    assert not round_.fixtures.exclude(table_ref="").exists()  # opened by their players
    refs = []
    for fixture in round_.fixtures.order_by("number"):
        user = fixture.seats.order_by("number").first().player.user
        refs.append(schedule.open_table(fixture, by=user))
    a, b = (Table.objects.get(pk=ref) for ref in refs)
    assert a.seed == b.seed == round_.sections.get().seed and a.embargoed and b.embargoed


# --- uploading a deal set ----------------------------------------------------------------------


def deals_url(event: Event, section: int = 1) -> str:
    return reverse("league:section_deals", args=[event.slug, 1, section])


@pytest.mark.parametrize(
    ("post", "message"),
    [
        ({"deals_text": "[{"}, "Not valid JSON"),
        ({"deals_text": ""}, "Give a deal set"),
        ({"deals_text": '{"hands": []}'}, "The deal set was not accepted"),
        ({"deals_text": "[]"}, "The deal set was not accepted"),
    ],
)
def test_a_bad_deal_set_is_refused_with_its_reason_and_nothing_changes(
    client, alice, post, message
):
    event = duplicate_event(alice)
    round_services.generate_round(event, by=alice)
    client.force_login(alice)
    response = client.post(deals_url(event), post)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert Section.objects.get().deals is None


def test_a_deal_set_with_a_card_twice_or_too_few_deals_is_refused(alice):
    event = duplicate_event(alice, deals=2)
    round_ = round_services.generate_round(event, by=alice)
    section = round_.sections.get()
    good = a_deal_set(event)
    section_services.upload_deals(section, good, by=alice)
    twice = json.loads(json.dumps(good))
    twice[1]["hands"][0][0] = twice[1]["hands"][1][0]
    for bad in (twice, good[:1], good + good[:1], "cards"):
        with pytest.raises(LeagueError, match="The deal set was not accepted"):
            section_services.upload_deals(section, bad, by=alice)
        section.refresh_from_db()
        assert section.deals == good  # the last good one stays


def test_a_deal_set_uploads_as_a_file_and_is_never_shown_back(client, alice):
    event = duplicate_event(alice)
    round_services.generate_round(event, by=alice)
    client.force_login(alice)
    mine = a_deal_set(event)
    upload = SimpleUploadedFile("deals.json", json.dumps(mine).encode(), "application/json")
    response = client.post(deals_url(event), {"deals_file": upload})
    assert response.status_code == 302
    assert Section.objects.get().deals == mine
    page = client.get(deals_url(event)).content.decode()
    assert "play the deal set you uploaded" in page
    assert mine[0]["hands"][0][0] not in re.findall(r"\b[0-9TJQKA][SHDC]\b", page)
    client.post(deals_url(event), {"action": "clear"})
    assert Section.objects.get().deals is None


def test_a_published_rounds_deal_set_cannot_change(client, alice):
    event = duplicate_event(alice)
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    with pytest.raises(LeagueError, match="published round cannot change"):
        section_services.upload_deals(round_.sections.get(), a_deal_set(event), by=alice)
    client.force_login(alice)
    response = client.post(deals_url(event), {"deals_text": json.dumps(a_deal_set(event))})
    assert response.status_code == 200 and "published round cannot change" in (
        response.content.decode()
    )
    assert Section.objects.get().deals is None


def test_only_organizers_upload_deal_sets(alice, bob):
    event = duplicate_event(alice)
    round_ = round_services.generate_round(event, by=alice)
    with pytest.raises(PermissionDenied):
        section_services.upload_deals(round_.sections.get(), a_deal_set(event), by=bob)
    assert Section.objects.get().deals is None


# --- hand records ------------------------------------------------------------------------------


def hands_url(event: Event) -> str:
    return reverse("league:round_hands", args=[event.slug, 1])


def card_lines(page: str) -> list[str]:
    return re.findall(r'<li class="suit-[SHDC]">.*?</li>', page)


def test_hand_records_show_every_seats_cards_to_the_organizer_before_completion(client, alice):
    event = duplicate_event(alice, deals=2)
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    section = round_.sections.get()
    client.force_login(alice)
    page = client.get(hands_url(event)).content.decode()
    deals = gameplay.deal_set(event.game, event.variant, 2, seed=section.seed)
    assert page.count('class="hand-record"') == 2
    assert page.count('class="hand" data-seat=') == 2 * 3
    ten_of = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    first = deals[0]["hands"][0]
    suit = first[0][-1]
    ranks = [c[:-1].replace("T", "10") for c in first if c[-1] == suit]
    line = next(x for x in card_lines(page) if ten_of[suit] in x)
    assert all(r in line for r in ranks)
    assert deals[0]["commitment"] in page


def test_hand_records_wait_for_the_section_for_everyone_else(client, alice, bob):
    event = duplicate_event(alice)
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    player = round_.fixtures.first().seats.first().player.user
    for who in (None, bob, player):
        client.logout()
        if who:
            client.force_login(who)
        page = client.get(hands_url(event)).content.decode()
        assert "published when every table of the section has finished" in page
        assert not card_lines(page)
    Section.objects.update(completed_at=timezone.now())
    client.logout()
    page = client.get(hands_url(event)).content.decode()
    assert card_lines(page)


def test_an_organizer_who_plays_waits_like_a_player(client, alice):
    event = duplicate_event(alice, players=5)
    event_services.add_entry(event, player_for_user(alice), by=alice, checked_in=True)
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    client.force_login(alice)
    page = client.get(hands_url(event)).content.decode()
    assert not card_lines(page) and "published when every table" in page


def test_hand_records_of_a_draft_round(client, alice, bob):
    event = duplicate_event(alice)
    round_ = round_services.generate_round(event, by=alice)
    client.force_login(bob)
    assert client.get(hands_url(event)).status_code == 404  # the round is not published
    client.force_login(alice)
    page = client.get(hands_url(event)).content.decode()
    assert "drawn from a secret seed when the round is published" in page
    section_services.upload_deals(round_.sections.get(), a_deal_set(event), by=alice)
    assert card_lines(client.get(hands_url(event)).content.decode())


def test_a_match_points_event_has_no_hand_records(client, alice):
    event = duplicate_event(alice, scoring="match")
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    client.force_login(alice)
    assert client.get(hands_url(event)).status_code == 404


def test_hand_records_read_a_fixed_number_of_queries(client, alice, django_assert_max_num_queries):
    event = duplicate_event(alice, players=12)
    round_ = round_services.generate_round(event, by=alice)
    section_services.split_sections(round_, [[1, 2], [3, 4]], by=alice)
    round_services.publish_round(round_, by=alice)
    client.force_login(alice)
    with django_assert_max_num_queries(12):
        assert client.get(hands_url(event)).status_code == 200


# --- the seed stays secret ---------------------------------------------------------------------


def test_the_seed_is_in_no_page_api_answer_or_log(client, alice, caplog):
    event = duplicate_event(alice, players=12)
    round_ = round_services.generate_round(event, by=alice)
    section_services.split_sections(round_, [[1, 2], [3, 4]], by=alice)
    with caplog.at_level(logging.DEBUG):
        round_services.publish_round(round_, by=alice)
        seeds = list(Section.objects.values_list("seed", flat=True))
        assert all(seeds)
        api = APIClient()
        api.force_login(alice)
        client.force_login(alice)
        answers = [
            client.get(reverse("league:round", args=[event.slug, 1])),
            client.get(reverse("league:event", args=[event.slug])),
            client.get(hands_url(event)),
            client.get(deals_url(event)),
            client.get(reverse("league:round_sheets", args=[event.slug, 1])),
            api.get(f"/api/events/{event.slug}/"),
            api.get(f"/api/events/{event.slug}/rounds/"),
            api.get(f"/api/events/{event.slug}/rounds/1/"),
            api.get(f"/api/events/{event.slug}/fixtures/"),
        ]
    for answer in answers:
        assert answer.status_code == 200, answer
        text = answer.content.decode()
        for seed in seeds:
            assert seed not in text
    for seed in seeds:
        assert seed not in caplog.text
        assert seed not in str(Section.objects.get(seed=seed))


# --- the API -----------------------------------------------------------------------------------


def organizer_api(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def test_the_api_lists_sections_and_splits_a_draft_round(alice):
    event = duplicate_event(alice, players=12)
    round_ = round_services.generate_round(event, by=alice)
    api = organizer_api(alice)
    base = f"/api/events/{event.slug}/rounds/1/"
    (section,) = api.get(base).json()["sections"]
    ids = dict(round_.fixtures.values_list("number", "pk"))
    assert section == {
        "number": 1,
        "tables": [ids[n] for n in (1, 2, 3, 4)],
        "uploaded_deals": False,
        "completed_at": None,
    }
    response = api.post(base + "sections/", {"sections": [[1, 4], [2, 3]]}, format="json")
    assert response.status_code == 200, response.content
    assert [s["tables"] for s in response.json()["sections"]] == [
        [ids[1], ids[4]],
        [ids[2], ids[3]],
    ]
    before = list(Fixture.objects.values_list("pk", "section"))
    for bad in ({"sections": [[1], [2, 3, 4]]}, {"sections": "1,2"}, {"sections": [[]]}, {}):
        assert api.post(base + "sections/", bad, format="json").status_code == 400, bad
    assert list(Fixture.objects.values_list("pk", "section")) == before


def test_the_api_takes_a_deal_set_and_refuses_a_bad_one(alice):
    event = duplicate_event(alice)
    round_services.generate_round(event, by=alice)
    api = organizer_api(alice)
    url = f"/api/events/{event.slug}/rounds/1/sections/1/deals/"
    bad = a_deal_set(event)[:1]
    response = api.put(url, {"deals": bad}, format="json")
    assert response.status_code == 400 and "not accepted" in response.content.decode()
    assert Section.objects.get().deals is None
    response = api.put(url, {"deals": a_deal_set(event)}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["sections"][0]["uploaded_deals"] is True
    assert "hands" not in response.content.decode()  # the cards are not sent back
    assert Section.objects.get().deals == a_deal_set(event)
    assert api.delete(url).status_code == 200
    assert Section.objects.get().deals is None
    assert (
        api.put(url.replace("/1/deals/", "/7/deals/"), {"deals": []}, format="json").status_code
        == 404
    )


def test_the_rounds_api_reads_a_fixed_number_of_queries(alice, django_assert_max_num_queries):
    event = duplicate_event(alice, players=12)
    round_ = round_services.generate_round(event, by=alice)
    section_services.split_sections(round_, [[1, 2], [3, 4]], by=alice)
    api = organizer_api(alice)
    with django_assert_max_num_queries(20) as few:
        api.get(f"/api/events/{event.slug}/rounds/")
    round_services.discard_draft(round_, by=alice)
    event = duplicate_event(alice, players=24, name="Bigger")
    round_ = round_services.generate_round(event, by=alice)
    section_services.split_sections(round_, [[1, 2, 3, 4], [5, 6, 7, 8]], by=alice)
    with django_assert_max_num_queries(len(few.captured_queries)):
        api.get(f"/api/events/{event.slug}/rounds/")
