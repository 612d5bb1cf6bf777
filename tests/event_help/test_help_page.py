"""An event's help page explains its payouts (from the game's engine), its match points, each
of its tie-breaks in the event's order, and a knockout's rule for who goes on; every standings
column header links to the part that explains it."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import escape
from django.utils.translation import gettext

from gameplay import api as gameplay
from games import catalogue
from league import scheduling
from league.models import Event
from league.pages.event_help import scored_example
from league.scheduling.formats import formats as registered_formats
from league.standings import TIEBREAKS, MatchRecord, Tiebreak, pairwise_points, register
from tests.event_help.conftest import ALL_TIEBREAKS_SHUFFLED

pytestmark = pytest.mark.django_db

GAMES = [g.name for g in catalogue.games()]
FORMATS = [f.name for f in registered_formats()]


def help_url(event: Event) -> str:
    return reverse("league:event_help", args=[event.slug])


def ids(page: str) -> list[str]:
    """Every element id of the page, in document order."""
    return re.findall(r'\sid="([^"]+)"', page)


def example_totals(page: str) -> list[int]:
    """The payouts of the example match's total row, seat by seat."""
    row = re.search(r'<tr class="total">(.*?)</tr>', page, re.S).group(1)
    cells = re.findall(r'<th class="num">([^<]*)</th>', row)
    return [int(c) for c in cells[1::2]]  # score, payout, score, payout…


def example_match_points(page: str) -> list[int]:
    table = page[page.index('id="match-points-example"') :]
    return [int(v) for v in re.findall(r"<strong>([+-]?\d+)</strong></td></tr>", table)]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("game", GAMES)
def test_the_help_page_of_every_game_and_format_explains_its_standings(
    client, make_event, game, fmt
):
    seats = catalogue.game(game).seats
    event = make_event(game, players=2 * seats, format=fmt, tiebreaks=["total_payouts", "lot"])
    response = client.get(help_url(event))
    assert response.status_code == 200
    page = response.content.decode()
    anchors = ids(page)
    for anchor in ("rules-of-play", "payouts", "match-points", "ranking", "played", "wins"):
        assert anchor in anchors, anchor
    assert anchors.index("tiebreak-total_payouts") < anchors.index("tiebreak-lot")
    # A format that decides who plays on says how, with its own rules (the round pages' notes).
    picks = scheduling.get_format(fmt).picks_players
    assert ("advancing" in anchors) is picks
    for note in scheduling.get_format(fmt).rules(
        2, n_players=2 * seats, table_size=seats, leftover=event.leftover
    ):
        assert escape(gettext(note.text) % note.params) in page
    # Payouts are the engine's: its legend, and its example scored under the event's variant.
    legend = gameplay.legend(game)
    assert escape(legend["payout"]) in page
    variant = catalogue.validate_variant(game, event.variant)
    scored = scored_example(game, variant, seats, event.deals_per_match)
    totals = example_totals(page)
    assert totals == scored["totals"]["payouts"] and sum(totals) == 0
    # …and the match points are the standings' own pairwise rule applied to those totals.
    record = MatchRecord(0, 1, tuple(range(seats)), tuple(totals), (), frozenset(), 1)
    assert example_match_points(page) == list(pairwise_points(record))
    assert f'href="{reverse("gameplay:rules", args=[game])}#scoring"' in page


@pytest.mark.parametrize(
    ("variant", "payouts", "points", "winners"),
    [
        # zero-sum: Ana and Ben share the median game score, +1 each
        ({}, [1, 1, -2], [1, 1, -2], "The match's winners: Ana, Ben."),
        # raw: 3 x G less all three, and the highest payout wins
        ({"payout": "raw"}, [-15, -15, 30], [-1, -1, 2], "The match's winner: Cleo."),
    ],
)
def test_the_example_follows_the_events_variant(
    client, make_event, variant, payouts, points, winners
):
    event = make_event("saichugen", variant=variant)
    page = client.get(help_url(event)).content.decode()
    assert example_totals(page) == payouts
    assert example_match_points(page) == points
    assert winners in page


def test_a_variant_the_example_sheet_does_not_fit_gets_an_example_played_in_it(client, make_event):
    # 6-3-8 drops a card: the engine's example sheet (tricks adding up to 16) does not fit it.
    event = make_event("three_five_eight", variant={"targets": "6-3-8"})
    response = client.get(help_url(event))
    assert response.status_code == 200
    page = response.content.decode()
    assert '#flag-targets">Targets</a>: 6-3-8' in page  # the variant, as a person reads it
    assert sum(example_totals(page)) == 0


def test_each_tiebreak_is_explained_in_the_events_order(client, played):
    page = client.get(help_url(played)).content.decode()
    anchors = ids(page)
    positions = [anchors.index(f"tiebreak-{name}") for name in ALL_TIEBREAKS_SHUFFLED]
    assert positions == sorted(positions)
    for name in ALL_TIEBREAKS_SHUFFLED:
        section = page[page.index(f'id="tiebreak-{name}"') :].split("</section>")[0]
        tiebreak = TIEBREAKS.get(name)
        assert escape(gettext(tiebreak.label)) in section
        assert escape(gettext(tiebreak.help)) in section
        assert escape(gettext(tiebreak.example)) in section


def test_only_the_events_own_tiebreaks_are_listed(client, make_event):
    event = make_event("saichugen", tiebreaks=["head_to_head"])
    anchors = ids(client.get(help_url(event)).content.decode())
    assert [a for a in anchors if a.startswith("tiebreak-")] == ["tiebreak-head_to_head"]


def test_without_tiebreaks_the_page_says_level_players_share_a_place(client, make_event):
    event = make_event("saichugen")
    Event.objects.filter(pk=event.pk).update(tiebreaks=[])
    page = client.get(help_url(event)).content.decode()
    assert "This event has no tie-breaks" in page
    assert not [a for a in ids(page) if a.startswith("tiebreak-")]


def tiebreaks_without_help(registry: dict[str, type[Tiebreak]]) -> list[str]:
    """The registered tie-breaks a player could not read about on the help page."""
    return [
        name
        for name, cls in registry.items()
        if not str(getattr(cls, "help", "")).strip() or not str(getattr(cls, "example", "")).strip()
    ]


def test_every_registered_tiebreak_brings_its_help_and_example():
    registered = dict(TIEBREAKS.items())
    assert tiebreaks_without_help(registered) == []
    helps = [tb.help for tb in registered.values()] + [tb.example for tb in registered.values()]
    assert len(set(helps)) == len(helps)  # each its own text, not one pasted everywhere

    class Bare(Tiebreak):  # a tie-break added without a word for the players
        name = "bare"
        label = "Bare"
        description = "a key and nothing to read"

    assert tiebreaks_without_help({**registered, "bare": Bare}) == ["bare"]


@pytest.fixture
def extra_tiebreak():
    """A tie-break registered for one test only (the registry is module state)."""

    class Seats(Tiebreak):
        name = "seats_held"
        label = "Seats held"
        description = "test only"
        help = "How many seats the player has held (a test's tie-break)."
        example = "Ana held 4 seats and Ben 3: Ana ranks above Ben."

        def value(self, tally, player_id):
            return tally.players[player_id].matches_played

    register(Seats)
    yield Seats
    TIEBREAKS.unregister(Seats.name)


def test_a_new_tiebreak_brings_its_help_to_the_page(client, make_event, extra_tiebreak):
    event = make_event("saichugen")
    Event.objects.filter(pk=event.pk).update(tiebreaks=["seats_held", "lot"])
    page = client.get(help_url(event)).content.decode()
    assert 'id="tiebreak-seats_held"' in page
    assert escape(extra_tiebreak.help) in page and escape(extra_tiebreak.example) in page


def header_links(page: str, event: Event) -> dict[str, str]:
    """Each standings column header's text and the help anchor it links to."""
    head = re.search(r"<thead>(.*?)</thead>", page, re.S).group(1)
    prefix = re.escape(help_url(event))
    links = {}
    for cell in re.findall(r"<th>(.*?)</th>", head, re.S):
        found = re.fullmatch(rf'<a href="{prefix}#([\w-]+)">(.*?)</a>', cell.strip(), re.S)
        if cell in ("#", "Player"):
            continue
        assert found, f"a standings header without its help link: {cell}"
        links[found.group(2)] = found.group(1)
    return links


def test_every_standings_column_header_links_to_its_help(client, played):
    standings = client.get(reverse("league:standings", args=[played.slug])).content.decode()
    links = header_links(standings, played)
    assert links["Match points"] == "match-points"
    assert links["Payouts"] == "payouts"
    assert links["Wins"] == "wins"
    # The tie-breaks with a column of their own link to their own part.
    assert links[escape("Opponents' average payout")] == "tiebreak-opponents_average_payout"
    assert links["Head-to-head"] == "tiebreak-head_to_head"
    anchors = set(ids(client.get(help_url(played)).content.decode()))
    assert set(links.values()) <= anchors
    assert f'href="{help_url(played)}"' in standings


def test_a_knockouts_standings_link_the_round_reached_to_who_goes_on(client, make_event, alice):
    from tests.league.conftest import play_round

    event = make_event("saichugen", players=9, format="knockout", tiebreaks=["wins"])
    play_round(event, alice)
    standings = client.get(reverse("league:standings", args=[event.slug])).content.decode()
    links = header_links(standings, event)
    assert links["Round reached"] == "advancing"
    page = client.get(help_url(event)).content.decode()
    assert set(links.values()) <= set(ids(page))
    assert "A knockout ranks by the round reached" in page
    assert "in a knockout they do not decide the ranking" in page


def test_the_event_page_links_its_help_and_its_ledger(client, played):
    page = client.get(reverse("league:event", args=[played.slug])).content.decode()
    assert f'href="{help_url(played)}"' in page
    assert f'href="{reverse("league:ledger", args=[played.slug])}"' in page


def test_a_drafts_help_is_hidden_from_everyone_but_its_organizers(
    client, make_event, alice, charlie
):
    event = make_event("saichugen")
    Event.objects.filter(pk=event.pk).update(visibility=Event.Visibility.DRAFT)
    assert client.get(help_url(event)).status_code == 404
    client.force_login(charlie)
    assert client.get(help_url(event)).status_code == 404
    client.force_login(alice)
    assert client.get(help_url(event)).status_code == 200


# The session and its account, the event, whether the reader organizes it, the field's size.
QUERIES = 5


def test_the_help_page_uses_a_fixed_number_of_queries(
    client, make_event, alice, django_assert_max_num_queries
):
    small = make_event("saichugen", players=3, tiebreaks=ALL_TIEBREAKS_SHUFFLED)
    big = make_event("mediatore", players=40, format="knockout", tiebreaks=["wins", "lot"])
    client.force_login(alice)
    for event in (small, big):
        with django_assert_max_num_queries(QUERIES):
            assert client.get(help_url(event)).status_code == 200
