"""The score grid of every game, from its own sheet rules: the fields a player writes on paper,
their bounds, problems on the field that is wrong, and a grid row converting to the very sheet
the JSON path scores (pure engines, no database)."""

from __future__ import annotations

import pytest

from games.core.grid import check_grid, describe_grid, grid_to_sheet, read_form
from games.core.sheets import SheetError, score_sheet


def fields_of(game, variant=None):
    return {f["name"]: f for f in describe_grid(game, variant or {})["fields"]}


def problems(game, rows, variant=None):
    return [
        (p.deal, p.field, p.seat, p.reason) for p in grid_to_sheet(game, variant or {}, rows)[1]
    ]


def scored_from_grid(game, rows, variant=None, seats=3):
    sheet, found = grid_to_sheet(game, variant or {}, rows)
    assert found == []
    return sheet, score_sheet(game, variant or {}, sheet, n_seats=seats)


# --- every game has a grid, described as data ----------------------------------------------


@pytest.mark.parametrize(
    ("game", "names"),
    [
        ("saichugen", {"round1", "round5"}),
        ("three_five_eight", {"tricks"}),
        ("schieberamsch", {"points", "pushes", "jungfrau", "durchmarsch", "grand", "matadors"}),
        ("mediatore", {"contract", "declarer", "partner", "giver", "outcome", "slam"}),
    ],
)
def test_every_game_describes_the_fields_written_on_paper(game, names):
    fields = fields_of(game)
    assert names <= set(fields)
    for field in fields.values():
        assert field["kind"] in ("int", "bool", "choice", "seat")
        assert field["label"]
        if field["kind"] == "int":
            assert field["min"] is not None and field["max"] is not None


def test_the_description_follows_the_variant():
    assert fields_of("three_five_eight")["tricks"]["sum"] == 16
    assert fields_of("three_five_eight", {"targets": "6-3-8"})["tricks"]["sum"] == 17
    assert {"bid", "high_bidder", "thrown_in"} <= set(
        fields_of("three_five_eight", {"woburn_bidding": True})
    )
    assert "bid" not in fields_of("three_five_eight")
    plain = fields_of("schieberamsch", {"grand_hand": False})
    assert "grand" not in plain and "declarer" not in plain
    assert "kontra" not in fields_of("schieberamsch", {"kontra_re": False})
    loser = fields_of("schieberamsch", {"skat_to": "loser"})
    assert loser["points"]["sum"] is None and "skat" in loser
    ramsch = fields_of("schieberamsch")
    assert ramsch["points"]["sum"] == 120 and ramsch["points"]["max"] == 120
    assert ramsch["pushes"]["max"] == 3
    assert ramsch["matadors"]["when"] == [["grand", True]]


# --- Saichugen: each round's scores ---------------------------------------------------------

ROUNDS = {
    "round1": [12, 7, 5],  # seat 1 banks 7
    "round2": [7, 7, 0],  # seats 0 and 1 bank 7
    "round3": [9, 9, 9],  # all bank 9
    "round4": [0, 0, 23],  # median 0: the two zeros win and bank 0
    "round5": [3, 4, 5],  # seat 1 banks 4
}


def test_saichugen_rounds_bank_at_their_median_and_score_like_the_game_scores():
    sheet, scored = scored_from_grid("saichugen", [ROUNDS])
    assert sheet == {"deals": [{"scores": [16, 27, 9]}]}
    assert scored == score_sheet("saichugen", {}, {"deals": [{"scores": [16, 27, 9]}]})
    assert scored["deals"][0]["payouts"] == [2, -1, -1]


def test_saichugen_round_scores_three_tricks_cannot_make_are_refused_on_that_round():
    assert problems("saichugen", [{**ROUNDS, "round2": [0, 14, 25]}]) == [
        (0, "round2", None, "these scores need 4 tricks, and a round has 3")
    ]
    assert problems("saichugen", [{**ROUNDS, "round3": [1, 1, 0]}])[0][:2] == (0, "round3")
    assert problems("saichugen", [{**ROUNDS, "round1": [40, 0, 0]}]) == [
        (0, "round1", 0, "from 0 to 39")
    ]


# --- 3-5-8: tricks per seat -----------------------------------------------------------------


def test_the_minus_one_is_the_field_that_is_wrong_not_the_sum():
    assert problems("three_five_eight", [{"tricks": [-1, 13, 4]}]) == [
        (0, "tricks", 0, "from 0 to 16")
    ]
    with pytest.raises(SheetError) as refused:
        score_sheet("three_five_eight", {}, {"deals": [{"scores": [-1, 13, 4]}]})
    assert str(refused.value) == "deal 0: tricks taken are from 0 to 16 (seat 0 has -1)"
    assert (refused.value.deal, refused.value.field, refused.value.seat) == (0, "tricks", 0)


def test_three_five_eight_tricks_must_make_the_hand():
    assert problems("three_five_eight", [{"tricks": [10, 2, 5]}]) == [
        (0, "tricks", None, "these add up to 17; they must add up to 16")
    ]
    assert problems("three_five_eight", [{"tricks": [9, 4, 4]}], {"targets": "6-3-8"}) == []


def test_three_five_eight_grid_scores_as_the_json_sheet_and_stops_at_twelve_tricks():
    rows = [{"tricks": [10, 2, 4]}, {"tricks": [12, 3, 1]}]
    sheet, scored = scored_from_grid("three_five_eight", rows)
    json_sheet = {"deals": [{"scores": [10, 2, 4]}, {"scores": [12, 3, 1]}]}
    assert sheet == json_sheet
    assert scored == score_sheet("three_five_eight", {}, json_sheet)
    check = check_grid("three_five_eight", {}, [*rows, {"tricks": [5, 5, 6]}], n_deals=3)
    assert [(p.deal, p.reason) for p in check["problems"]] == [
        (2, "the match was already won in an earlier hand")
    ]
    assert [d["running_payouts"] for d in check["deals"]] == [[2, -3, 1], [11, -8, -3]]
    assert check["sheet"] is None  # not ready to count


def test_woburn_bidding_asks_the_first_hand_played_for_its_auction():
    woburn = {"woburn_bidding": True}
    rows = [
        {"thrown_in": True},
        {"thrown_in": False, "tricks": [2, 10, 4], "bid": 10, "high_bidder": 1},
        {"thrown_in": False, "tricks": [5, 5, 6], "bid": None, "high_bidder": None},
    ]
    sheet, scored = scored_from_grid("three_five_eight", rows, woburn)
    assert sheet["deals"][1] == {"scores": [2, 10, 4], "bid": 10, "dealer": 1}
    assert scored["deals"][1]["dealer"] == 1
    missing = [{"thrown_in": False, "tricks": [2, 10, 4], "bid": None, "high_bidder": None}]
    assert problems("three_five_eight", missing, woburn) == [
        (0, "bid", None, "the first hand played needs it")
    ]
    later = [rows[1], {**rows[2], "bid": 9}]
    assert problems("three_five_eight", later, woburn)[0][:2] == (1, "bid")
    thrown_late = [rows[1], {"thrown_in": True}]
    assert problems("three_five_eight", thrown_late, woburn)[0][:2] == (1, "thrown_in")


# --- Schieberamsch: card points, pushes, Jungfrau/Durchmarsch, Grand Hand -----------------


def ramsch(points, pushes=0, jungfrau=None, durchmarsch=None, **more):
    return {
        "grand": False,
        "points": points,
        "pushes": pushes,
        "jungfrau": jungfrau,
        "durchmarsch": durchmarsch,
        **more,
    }


def grand(declarer, matadors, points, schwarz=False, kontra=False, re=False):
    return {
        "grand": True,
        "declarer": declarer,
        "matadors": matadors,
        "declarer_points": points,
        "schwarz": schwarz,
        "kontra": kontra,
        "re": re,
    }


@pytest.mark.parametrize(
    ("row", "variant", "scores"),
    [
        # the rules file's worked examples
        (ramsch([38, 45, 37]), {}, [0, 4, 0]),
        (ramsch([0, 82, 38], pushes=1, jungfrau=0), {}, [0, 32, 0]),
        (ramsch([50, 50, 20], pushes=2), {}, [20, 20, 0]),
        (ramsch([0, 0, 120], pushes=3, durchmarsch=2), {}, [0, 0, -96]),
        (grand(0, 2, 77), {}, [-9, 0, 0]),
        (grand(0, 2, 77, kontra=True, re=True), {}, [-38, 0, 0]),
        (grand(1, 2, 58), {}, [0, 9, 0]),
        (grand(1, 2, 58), {"grand_loss_factor": 2}, [0, 19, 0]),
        (grand(2, 4, 120, schwarz=True), {}, [0, 0, -19]),
        (ramsch([40, 40, 40]), {}, [0, 0, 0]),
        (ramsch([38, 45, 37]), {"score_divisor": 1}, [0, 45, 0]),
    ],
)
def test_schieberamsch_grid_gives_the_rules_files_penalties(row, variant, scores):
    sheet, scored = scored_from_grid("schieberamsch", [row], variant)
    assert sheet == {"deals": [{"scores": scores}]}
    assert scored == score_sheet("schieberamsch", variant, sheet)


def test_the_skat_goes_to_the_most_trick_points_when_the_loser_takes_it():
    variant = {"skat_to": "loser"}
    row = ramsch([38, 45, 27], skat=10)  # B has the most in tricks: 45 + 10
    assert scored_from_grid("schieberamsch", [row], variant)[0]["deals"][0]["scores"] == [0, 5, 0]
    assert problems("schieberamsch", [ramsch([38, 45, 27], skat=9)], variant) == [
        (0, "skat", None, "two cards cannot hold 9 points")
    ]
    assert problems("schieberamsch", [ramsch([38, 45, 30], skat=10)], variant)[0][:2] == (
        0,
        "points",
    )


@pytest.mark.parametrize(
    ("row", "where"),
    [
        (ramsch([38, 45, 38]), ("points", None)),  # 121 card points
        (ramsch([119, 1, 0]), ("points", 0)),  # no seat can take 119 (nor 1)
        (ramsch([38, 45, 37], pushes=4), ("pushes", None)),
        (ramsch([38, 45, 37], pushes=-1), ("pushes", None)),
        (ramsch([38, 45, 37], jungfrau=1), ("points", 1)),  # no trick, yet 45 points
        (ramsch([0, 0, 120], durchmarsch=1), ("points", 1)),
        (ramsch([0, 0, 120], jungfrau=0, durchmarsch=2), ("jungfrau", None)),
        (ramsch([38, 45, 37], jungfrau=5), ("jungfrau", None)),
        (grand(0, 5, 77), ("matadors", None)),
        (grand(0, 2, 121), ("declarer_points", None)),
        (grand(0, 2, 77, re=True), ("re", None)),
        (grand(0, 2, 77, schwarz=True), ("schwarz", None)),
    ],
)
def test_schieberamsch_bounds_name_the_field_that_is_wrong(row, where):
    found = problems("schieberamsch", [row])
    assert found and found[0][1:3] == where


@pytest.mark.parametrize(
    "scores",
    [[500, 0, 0], [-120, 0, 0], [0, 38, -12], [4, 4, 4], [4, 5, 0], [0, 191, 0], [-2000, 0, 0]],
)
def test_a_schieberamsch_json_sheet_takes_only_penalties_a_deal_can_give(scores):
    with pytest.raises(SheetError, match="deal 0: "):
        score_sheet("schieberamsch", {}, {"deals": [{"scores": scores}]})


def test_a_schieberamsch_json_sheet_takes_what_the_rules_give():
    for scores in ([4, 0, 0], [20, 20, 0], [0, 0, -96], [0, -38, 0], [0, 0, 192], [0, 0, 0]):
        assert score_sheet("schieberamsch", {}, {"deals": [{"scores": scores}]})
    unscaled = {"score_divisor": 1}
    assert score_sheet("schieberamsch", unscaled, {"deals": [{"scores": [0, 960, 0]}]})
    with pytest.raises(SheetError, match="no deal scores a penalty of -76"):  # no Grand Hand
        score_sheet("schieberamsch", {"grand_hand": False}, {"deals": [{"scores": [-76, 0, 0]}]})


# --- Mediatore: contract, declarer, partner or giver, won or lost, slam --------------------


def contract(name, declarer, **more):
    row = {
        "thrown_in": False,
        "contract": name,
        "declarer": declarer,
        "partner": None,
        "giver": None,
        "outcome": "won",
        "slam": False,
        "points": None,
    }
    return {**row, **more}


@pytest.mark.parametrize(
    ("row", "deal", "payouts"),
    [
        (
            contract("chiamo", 0, partner=2),
            {"contract": "chiamo", "declarer": 0, "won": True, "slam": False, "partner": 2},
            [5, -4, 3, -4],
        ),
        (
            contract("mediatore", 0, giver=1, outcome="lost", points=5),
            {
                "contract": "mediatore",
                "declarer": 0,
                "won": False,
                "slam": False,
                "giver": 1,
                "points": 5,
            },
            [-22, 6, 8, 8],
        ),
        (
            contract("solo", 3, slam=True),
            {"contract": "solo", "declarer": 3, "won": True, "slam": True},
            [-14, -14, -14, 42],
        ),
        (
            contract("chiamo", 0),
            {
                "contract": "chiamo",
                "declarer": 0,
                "won": True,
                "slam": False,
                "called_in_monte": True,
            },
            [12, -4, -4, -4],
        ),
    ],
)
def test_mediatore_rows_are_the_json_deals_of_the_stake_table(row, deal, payouts):
    sheet, scored = scored_from_grid("mediatore", [row], seats=4)
    assert sheet == {"deals": [deal]}
    assert scored == score_sheet("mediatore", {}, {"deals": [deal]}, n_seats=4)
    assert scored["deals"][0]["payouts"] == payouts


def test_mediatore_contradictions_sit_on_their_field():
    assert problems("mediatore", [contract("chiamo", 1, partner=1)]) == [
        (0, "partner", None, "the declarer cannot be his own partner or giver")
    ]
    assert problems("mediatore", [contract("solo", 0, points=5)])[0][1] == "outcome"
    assert problems("mediatore", [contract("solo", 0, slam=True, points=9)])[0][1] == "slam"
    assert problems("mediatore", [contract("solo", 7)])[0][1:3] == ("declarer", None)
    assert problems("mediatore", [contract("grand", 0)])[0][1] == "contract"
    thrown = [{"thrown_in": True}, contract("solo", 0)]
    assert grid_to_sheet("mediatore", {}, thrown)[0]["deals"][0] == {"thrown_in": True}


# --- reading a form and checking as it is typed ---------------------------------------------


def form(values):
    return values.get


def test_a_form_is_read_by_its_input_names_and_what_is_no_number_is_a_problem():
    rows, found = read_form(
        "three_five_eight",
        {},
        3,
        form({"d0.tricks.0": "10", "d0.tricks.1": "2", "d0.tricks.2": "x"}),
    )
    assert rows == [{"tricks": [10, 2, None]}]  # the blank deals at the end are left out
    assert [(p.deal, p.field, p.seat, p.reason) for p in found] == [
        (0, "tricks", 2, "a whole number")
    ]


def test_fields_a_row_does_not_ask_are_blank_whatever_was_typed():
    typed = {
        "d0.grand": "",
        "d0.points.0": "38",
        "d0.points.1": "45",
        "d0.points.2": "37",
        "d0.pushes": "0",
        "d0.matadors": "nonsense",
        "d0.declarer_points": "77",
    }
    rows, found = read_form("schieberamsch", {}, 1, form(typed))
    assert found == []
    assert rows[0]["matadors"] is None and rows[0]["declarer_points"] is None
    assert grid_to_sheet("schieberamsch", {}, rows)[0] == {"deals": [{"scores": [0, 4, 0]}]}


def test_an_empty_deal_before_a_filled_one_is_named():
    rows = [{"tricks": [None, None, None]}, {"tricks": [10, 2, 4]}]
    assert problems("three_five_eight", rows)[0][:2] == (0, None)
    assert problems("three_five_eight", [{"tricks": [None] * 3}]) == [
        (0, None, None, "fill in at least one deal")
    ]
