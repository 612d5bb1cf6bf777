"""Score sheets at a table of four: a sheet typed from a played record's deal scores scores
exactly as the record does (payouts, totals, winners, the match's end), the sitter's column
0; a sheet that gives the sitter anything is refused naming him."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import catalogue
from games.core.sheet_rules import SheetError

GAMES = {
    "saichugen": [{}],
    "schieberamsch": [{}],
    "three_five_eight": [{}, {"targets": "6-3-8"}, {"fixed_length": True}],
}
CASES = [(game, variant) for game, variants in GAMES.items() for variant in variants]
PLAYERS = ["Ann", "Bea", "Cy", "Dan"]


@pytest.mark.parametrize(("game", "variant"), CASES)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), n_deals=st.sampled_from([4, 8]))
def test_a_sheet_of_a_played_table_of_four_scores_as_its_record(game, variant, seed, n_deals):
    record = catalogue.random_record(
        game, players=PLAYERS, variant=variant, n_deals=n_deals, seed=seed
    )
    scored = catalogue.score_record(record, n_deals=n_deals)
    sheet = {"deals": [{"scores": d["scores"]} for d in scored["deals"]]}
    typed = catalogue.score_sheet(game, variant, sheet, dealer=0, n_seats=4, n_deals=n_deals)
    assert [d["payouts"] for d in typed["deals"]] == [d["payouts"] for d in scored["deals"]]
    assert [d["sitter"] for d in typed["deals"]] == [d["sitter"] for d in scored["deals"]]
    assert typed["totals"] == scored["totals"]
    assert typed["winners"] == scored["winners"]
    assert typed["complete"] == scored["complete"]
    for d in typed["deals"]:
        assert d["scores"][d["sitter"]] == 0 and d["payouts"][d["sitter"]] == 0


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_sitter_has_nothing_on_a_sheet(game):
    record = catalogue.random_record(game, players=PLAYERS, n_deals=4, seed=1)
    deals = [{"scores": d["scores"]} for d in catalogue.score_record(record)["deals"]]
    deals[1]["scores"] = [*deals[1]["scores"]]
    deals[1]["scores"][1] = 5  # seat 1 sits out deal 1
    with pytest.raises(SheetError, match="deal 1: seat 1 sits out this deal"):
        catalogue.score_sheet(game, {}, {"deals": deals}, dealer=0, n_seats=4)


def test_woburn_bidding_is_refused_at_four_on_a_sheet_too():
    with pytest.raises(SheetError, match="Woburn"):
        catalogue.score_sheet(
            "three_five_eight",
            {"woburn_bidding": True},
            {"deals": [{"scores": [0, 8, 4, 4]}]},
            n_seats=4,
        )


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_grid_of_a_table_of_four_leaves_the_sitters_cells_blank(game):
    """Typed in the score grid (final scores where the game has that layout; 3-5-8's tricks),
    the same deals give the same sheet; a filled sitter's cell is refused beside it."""
    layout = "scores" if game != "three_five_eight" else "full"
    field = "scores" if game != "three_five_eight" else "tricks"
    record = catalogue.random_record(game, players=PLAYERS, n_deals=4, seed=3)
    scored = catalogue.score_record(record)
    rows = []
    for d in scored["deals"]:
        values = list(d["scores"])
        values[d["sitter"]] = None  # left blank
        rows.append({field: values})
    sheet, problems = catalogue.grid_sheet(game, {}, rows, layout, 4)
    assert problems == []
    assert sheet["deals"] == [{"scores": d["scores"]} for d in scored["deals"]]
    rows[2][field] = list(rows[2][field])
    rows[2][field][2] = 1  # seat 2 sits out deal 2
    _sheet, problems = catalogue.grid_sheet(game, {}, rows, layout, 4)
    assert [(p["deal"], p["field"], p["seat"]) for p in problems] == [(2, field, 2)]
    assert "sits out this deal" in problems[0]["reason"]


def test_a_seat_named_in_a_row_at_four_is_one_of_the_three_who_played():
    """Schieberamsch's full grid names a Jungfrau by seat: the sitter cannot be one, and a
    seat that played is renumbered into the deal (its penalty lands on the right column)."""
    row = {"grand": False, "points": [None, 60, 30, 30], "pushes": 0, "durchmarsch": None}
    _sheet, problems = catalogue.grid_sheet(
        "schieberamsch", {}, [{**row, "jungfrau": 0}], "full", 4
    )
    assert [(p["field"], p["reason"]) for p in problems] == [
        ("jungfrau", "the player chosen sits out this deal")
    ]
    plain, problems = catalogue.grid_sheet(
        "schieberamsch", {}, [{**row, "jungfrau": None}], "full", 4
    )
    assert problems == [] and plain["deals"][0]["scores"][0] == 0
    loser = plain["deals"][0]["scores"].index(max(plain["deals"][0]["scores"]))
    assert loser == 1  # the most card points: seat 1, as typed
