"""Score sheets: results of over-the-table play typed by an organizer, checked by the rules.

A sheet has no cards, only each deal's outcome. Wherever the rules derive payouts from the
outcome (every game here does), the sheet's payouts are derived, and payouts the organizer
typed must sum to zero and match them. The result has the shape of `score_record`'s output.

Sheet format (JSON): ``{"deals": [DEAL, ...]}``, one DEAL per deal in play order; any deal may be
``{"thrown_in": true}`` where the game allows it (Mediatore, 3-5-8 with Woburn bidding).

- saichugen: ``{"scores": [G0, G1, G2]}`` — the game scores banked over the five rounds.
- three_five_eight: ``{"scores": [tricks...]}``; with Woburn bidding the first hand also says
  ``"bid": N, "dealer": SEAT`` (the high bidder).
- schieberamsch: ``{"scores": [penalties...]}`` (as the rules file's Record scores).
- mediatore: ``{"contract": "chiamo", "declarer": 0, "partner": 2, "giver": null,
  "called_in_monte": false, "won": true, "slam": false}`` (partner for Chiamo 2 v 2, giver for a
  Mediatore with a giver; ``"points"`` — the declarer side's points — may be given and is
  checked against ``won``/``slam``).
Every deal may also carry ``"payouts"``, checked as above.
"""

from __future__ import annotations

from typing import Any

from . import mediatore, saichugen, schieberamsch, three_five_eight
from .errors import EngineError
from .registry import get_game

MAX_SAICHUGEN = 5 * 3 * 13  # every trick of the game won with a king
MAX_RAMSCH = 120 * 2 * 8  # a Jungfrau after three pushes, before the divisor


class SheetError(EngineError):
    """A score sheet the rules cannot accept; the message names the deal and the reason."""


def _ints(value: Any, n: int, what: str) -> list[int]:
    if not isinstance(value, list) or len(value) != n:
        raise SheetError(f"{what} must be a list of {n} whole numbers")
    if any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise SheetError(f"{what} must be whole numbers")
    return list(value)


def _seat(value: Any, n: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise SheetError(f"{what} must be a seat from 0 to {n - 1}")
    return value


def _check_payouts(deal: dict[str, Any], derived: list[int], n: int) -> list[int]:
    if "payouts" not in deal or deal["payouts"] is None:
        return derived
    typed = _ints(deal["payouts"], n, "payouts")
    if sum(typed) != 0:
        raise SheetError(f"payouts {typed} do not sum to zero")
    if typed != derived:
        raise SheetError(f"payouts {typed} do not follow from the deal; the rules give {derived}")
    return typed


def _saichugen(deal: dict, variant: dict, dealer: int) -> tuple[list[int], list[int]]:
    scores = _ints(deal.get("scores"), 3, "scores")
    if any(not 0 <= s <= MAX_SAICHUGEN for s in scores):
        raise SheetError(f"a game score is from 0 to {MAX_SAICHUGEN}")
    if sum(scores) > MAX_SAICHUGEN:
        raise SheetError(f"the three game scores cannot add up to more than {MAX_SAICHUGEN}")
    return scores, saichugen.game_payouts(scores, variant["payout"])


def _schieberamsch(deal: dict, variant: dict, dealer: int) -> tuple[list[int], list[int]]:
    scores = _ints(deal.get("scores"), 3, "scores")
    limit = MAX_RAMSCH * max(1, variant.get("grand_loss_factor", 1))
    if any(abs(s) > limit for s in scores):
        raise SheetError(f"a penalty is at most {limit} points either way")
    return scores, schieberamsch.payouts_of(scores)


class _ThreeFiveEight:
    """3-5-8 needs the running balance across hands (win at 12 tricks or at +10)."""

    def __init__(self, variant: dict) -> None:
        self.variant = variant
        self.cum = [0, 0, 0]
        self.winner: int | None = None
        self.played = False  # Woburn bidding decides the first hand actually played

    def thrown_in(self) -> None:
        if not self.variant["woburn_bidding"] or self.played:
            raise SheetError("only a Woburn auction where everyone passed throws a hand in")

    def deal(self, deal: dict, dealer: int) -> tuple[list[int], list[int], int]:
        v = self.variant
        tricks = _ints(deal.get("scores"), 3, "scores (tricks taken)")
        six = v["targets"] == "6-3-8"
        total = 17 if six else 16
        if any(t < 0 for t in tricks) or sum(tricks) != total:
            raise SheetError(f"tricks taken must add up to {total}")
        table = three_five_eight.TARGETS[v["targets"]]
        if v["woburn_bidding"] and not self.played:
            bid = deal.get("bid")
            if isinstance(bid, bool) or not isinstance(bid, int) or not 8 <= bid <= 16:
                raise SheetError("the Woburn hand needs the winning bid (8 to 16)")
            dealer = _seat(deal.get("dealer"), 3, "dealer (the high bidder)")
            table = (bid, *three_five_eight.WOBURN[bid])
        self.played = True
        targets = three_five_eight.seat_targets(dealer, table)
        diff = [t - g for t, g in zip(tricks, targets, strict=True)]
        self.cum = [c + d for c, d in zip(self.cum, diff, strict=True)]
        if six:
            best = max(self.cum)
            leaders = [i for i in range(3) if self.cum[i] == best]
            if best >= 10 and len(leaders) == 1:
                self.winner = leaders[0]
        elif max(tricks) >= v["win_tricks"]:
            self.winner = tricks.index(max(tricks))
        return tricks, diff, dealer


def _mediatore(deal: dict, variant: dict, dealer: int) -> tuple[list[int], list[int]]:
    contract = deal.get("contract")
    if contract not in mediatore.CONTRACTS:
        raise SheetError(f"contract must be one of {', '.join(mediatore.CONTRACTS)}")
    code = mediatore.CONTRACTS.index(contract)
    declarer = _seat(deal.get("declarer"), 4, "declarer")
    helper = -1
    if code == mediatore.CHIAMO and deal.get("partner") is not None:
        helper = _seat(deal["partner"], 4, "partner")
    if code == mediatore.MEDIATORE and deal.get("giver") is not None:
        helper = _seat(deal["giver"], 4, "giver")
    if helper == declarer:
        raise SheetError("the declarer cannot be his own partner or giver")
    in_monte = deal.get("called_in_monte", False)
    if code in (mediatore.CHIAMO, mediatore.MEDIATORE) and (helper < 0) != bool(in_monte):
        raise SheetError("say either who held the called card or that it lay in the monte")
    won, slam = deal.get("won"), deal.get("slam", False)
    if not isinstance(won, bool) or not isinstance(slam, bool):
        raise SheetError("won and slam must be true or false")
    side = {declarer} | ({helper} if code == mediatore.CHIAMO and helper >= 0 else set())
    points = deal.get("points")
    if points is None:
        points = (11 if won else 0) if slam else (6 if won else 5)
    elif isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= 11:
        raise SheetError("points (the declarer side's) are from 0 to 11")
    if (points >= 6) != won:
        raise SheetError(f"{points} points {'lose' if won else 'win'}: check 'won'")
    if slam and points not in (0, 11):
        raise SheetError("a slam takes every trick: the points are 11 or 0")
    pay = mediatore.payments(code, declarer, helper, bool(in_monte), won, slam, variant["slam"])
    scores = [points if s in side else 11 - points for s in range(4)]
    return scores, pay


def score_sheet(
    game: str,
    variant: dict[str, Any],
    sheet: Any,
    *,
    dealer: int = 0,
    n_seats: int | None = None,
    n_deals: int | None = None,
) -> dict[str, Any]:
    """Check a sheet against the rules and score it (the shape of `score_record`'s output).

    With `n_deals` (the match length) a sheet with fewer deals is not complete, unless the
    match was won early (3-5-8)."""
    spec = get_game(game)
    variant = spec.validate_variant(variant)
    n = spec.seats
    if n_seats is not None and n_seats != n:
        raise SheetError(f"{spec.display_name} is played by {n}, not {n_seats}")
    if (
        not isinstance(sheet, dict)
        or not isinstance(sheet.get("deals"), list)
        or not sheet["deals"]
    ):
        raise SheetError('a score sheet is {"deals": [...]} with at least one deal')
    tracker = _ThreeFiveEight(variant) if game == "three_five_eight" else None
    rules = {"saichugen": _saichugen, "schieberamsch": _schieberamsch, "mediatore": _mediatore}
    deals, totals_s, totals_p = [], [0] * n, [0] * n
    for index, deal in enumerate(sheet["deals"]):
        try:
            if not isinstance(deal, dict):
                raise SheetError("each deal is an object")
            if tracker is not None and tracker.winner is not None:
                raise SheetError("the match was already won in an earlier hand")
            if deal.get("thrown_in"):
                if tracker is not None:
                    tracker.thrown_in()
                elif game != "mediatore":
                    raise SheetError(f"a {spec.display_name} deal cannot be thrown in")
                scores, payouts = [0] * n, [0] * n
            elif tracker is not None:
                scores, payouts, dealer = tracker.deal(deal, dealer)
            else:
                scores, payouts = rules[game](deal, variant, dealer)
            payouts = _check_payouts(deal, payouts, n)
        except SheetError as exc:
            raise SheetError(f"deal {index}: {exc}") from None
        deals.append({"dealer": dealer, "scores": scores, "payouts": payouts})
        totals_s = [a + b for a, b in zip(totals_s, scores, strict=True)]
        totals_p = [a + b for a, b in zip(totals_p, payouts, strict=True)]
        dealer = (dealer + 1) % n
    if tracker is not None and tracker.winner is not None:
        winners = [tracker.winner]
    elif game == "schieberamsch":
        winners = [i for i in range(n) if totals_s[i] == min(totals_s)]
    else:
        best = max(tracker.cum) if tracker is not None else max(totals_p)
        values = tracker.cum if tracker is not None else totals_p
        winners = [i for i in range(n) if values[i] == best]
    complete = (
        n_deals is None
        or len(deals) >= n_deals
        or (tracker is not None and tracker.winner is not None)
    )
    return {
        "game": game,
        "complete": complete,
        "deals": deals,
        "totals": {"scores": totals_s, "payouts": totals_p},
        "winners": winners if complete else [],
    }
