"""The toy game over the table: its score sheet scored by its own rules, its score grid read and
converted to that sheet, and the round's printed score sheets with the toy's columns."""

from __future__ import annotations

import pytest

from games.core.grid import describe_grid, grid_to_sheet
from games.core.sheets import SheetError, score_sheet
from tests.print import test_sheets
from tests.print.conftest import alice  # noqa: F401  (fixture)

pytestmark = pytest.mark.usefixtures("toy_game")


def test_a_sheet_is_scored_by_the_toys_rules():
    result = score_sheet("toy", {}, {"deals": [{"tricks": [2, 1, 1]}, {"tricks": [0, 4, 0]}]})
    assert result["deals"][0]["payouts"] == [2, -1, -1]
    assert result["totals"]["payouts"] == [-2, 7, -5]
    assert result["complete"] and result["winners"] == [1]
    with pytest.raises(SheetError, match="add up to 4"):
        score_sheet("toy", {}, {"deals": [{"tricks": [2, 2, 1]}]})


def test_the_grid_is_the_toys_and_a_row_becomes_the_same_sheet():
    [field] = describe_grid("toy", {})["fields"]
    assert (field["name"], field["per_seat"], field["sum"]) == ("tricks", True, 4)
    sheet, problems = grid_to_sheet("toy", {}, [{"tricks": [1, 1, 2]}])
    assert problems == []
    assert sheet == {"deals": [{"tricks": [1, 1, 2]}]}


@pytest.mark.django_db
def test_the_printed_score_sheet_has_the_toys_columns(alice):  # noqa: F811
    test_sheets.test_the_columns_are_those_of_the_games_own_grid(alice, "toy")
