"""What a round page says about its format: how the round was made (the format's rules, and
round 1's seeding, the event's draw), and for a knockout who goes on and why.

Everything comes from the format (`Format.rules`, `Format.first_round_seeding`, the
`Advance` of `league.services.advancing`); this module only puts names and numbers in the
sentences. The draw is shown as an order, never as the numbers behind it (they would give
away the event's secret schedule seed).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import catalogue
from league import scheduling
from league.models import Bye, Entry, Fixture, Player, Round
from league.scheduling.records import Advance, RoundOutcome, Standing, TableCall
from league.services import advancing
from league.services.entering import check_format


def criterion_label(name: str) -> str:
    """A criterion of the stated order as a page says it."""
    return {
        "total_payouts": _("total payout in the event"),
        "match_points": _("match points"),
        "draw": _("the event's draw"),
    }[name]


def round_notes(
    round_: Round, fixtures: Iterable[Fixture] | None = None, byes: Iterable[Bye] | None = None
) -> dict[str, Any]:
    """The page's "how this round works" data: `rules` (sentences), `seeding` (round 1:
    place, name, and "rating" or "draw"), `calls` (a knockout's reasons, one sentence per
    table, once every result is in), `going_on` (sentences on byes, best non-winners, the
    next round), `winner` (the final's) and `went_on` (per fixture id: the player who went on,
    and the sentence of a tie broken at that table). A constant number of queries; none more for
    `fixtures` and `byes` the page has loaded already (seats with players, `counting`), in a
    league or Swiss round after the first."""
    event = round_.event
    fmt = check_format(event.format)
    table_size = catalogue.game(event.game).seats
    tables = advancing.played_tables(round_, fixtures)
    byes = (
        [bye.player_id for bye in byes]
        if byes is not None
        else list(round_.byes.values_list("player_id", flat=True))
    )
    people = [s.player_id for _f, seats, _r in tables for s in seats if not s.player.is_builtin_bot]
    notes: dict[str, Any] = {
        "rules": [
            _(note.text) % note.params
            for note in fmt.rules(
                round_.number,
                n_players=len(people) + len(byes),
                table_size=table_size,
                leftover=event.leftover,
            )
        ],
        "seeding": [],
        "calls": [],
        "going_on": [],
        "winner": None,
        "went_on": {},
        "picks_players": fmt.picks_players,  # its tables mark who went on, not the winners
    }
    if round_.number == 1:
        notes["seeding"] = _seeding(round_, fmt, people + byes)
    if round_.status != Round.Status.PUBLISHED or not fmt.picks_players:
        return notes
    outcome = advancing.round_outcome(round_, tables=tables, byes=byes)
    if outcome is None:
        notes["going_on"] = [_("Who goes on is decided when every table has its result.")]
        return notes
    decision = fmt.advance(outcome)
    if decision is None:
        return notes
    names = dict(
        Player.objects.filter(pk__in=[*people, *byes, *decision.players]).values_list("id", "name")
    )
    played = tuple(tuple(s.player_id for s in seats) for _f, seats, _r in tables)
    final = fmt.is_decided(scheduling.RoundPlan(played, tuple(byes)))
    notes["calls"] = [_call_sentence(call, outcome, names, final) for call in decision.calls]
    # Per table (by fixture): who went on, and, where the table left them level with another,
    # the sentence that says how it was broken (the page prints it under the table).
    notes["went_on"] = {
        fixture.pk: {"player": call.advancer, "note": sentence if call.level else ""}
        for (fixture, _seats, _result), call, sentence in zip(
            tables, decision.calls, notes["calls"], strict=True
        )
    }
    if final:
        winner = decision.calls[0].advancer if decision.calls else None
        notes["winner"] = names.get(winner) if winner is not None else None
    else:
        notes["going_on"] = _going_on(round_.number, decision, outcome, names)
    return notes


def _seeding(round_: Round, fmt: Any, players: list[int]) -> list[dict[str, Any]]:
    """Round 1's seeding as the format cut it: place, name, and what placed them."""
    entries = Entry.objects.filter(event=round_.event, player_id__in=players).values_list(
        "player_id", "player__name", "rating_at_entry"
    )
    names = {p: name for p, name, _r in entries}
    records = [scheduling.PlayerRecord(id=p, rating=r) for p, _n, r in entries]
    order = fmt.first_round_seeding(records, round_.event.seed)
    if order is None:
        return []
    ratings = [p.rating for p in order]
    return [
        {
            "place": p.position,
            "name": names[p.id],
            # The rating placed them if nobody else has the same one; else the draw did.
            "by": _("rating %(rating).1f") % {"rating": p.rating}
            if p.rating is not None and ratings.count(p.rating) == 1
            else _("draw"),
        }
        for p in order
    ]


def _value(outcome: RoundOutcome, player: int, criterion: str) -> str:
    s = outcome.standing.get(player, Standing())
    value = s.total_payouts if criterion == "total_payouts" else s.match_points
    return f"{value:g}"


def _call_sentence(
    call: TableCall, outcome: RoundOutcome, names: dict[int, str], final: bool
) -> str:
    """Why this person goes on from (or wins) the table."""
    if call.advancer is None:
        return _("Table %(table)s: nobody still in the event goes on.") % {"table": call.table}
    params: dict[str, Any] = {"table": call.table, "player": names.get(call.advancer, "?")}
    lead = (
        _("Table %(table)s: %(player)s wins the knockout")
        if final
        else _("Table %(table)s: %(player)s goes on")
    ) % params
    bot = _(" (a bot won the table; bots never go on)") if call.bot_won else ""
    if call.decided_by == "won":
        reason = _("won the table")
    elif call.decided_by == "table_payout":
        reason = _("the highest payout at the table")
    elif call.decided_by == "alone":
        reason = _("the only one at the table still in the event")
    else:
        others = [names.get(p, "?") for p in call.level if p != call.advancer]
        level = _("level at the table with %(others)s") % {"others": ", ".join(others)}
        if call.decided_by == "draw":
            reason = _("%(level)s, by the event's draw") % {"level": level}
        else:
            runner = call.level[1]
            reason = _("%(level)s, by %(criterion)s (%(mine)s against %(theirs)s)") % {
                "level": level,
                "criterion": criterion_label(call.decided_by),
                "mine": _value(outcome, call.advancer, call.decided_by),
                "theirs": _value(outcome, runner, call.decided_by),
            }
    return f"{lead}{bot}: {reason}."


def _going_on(
    number: int, decision: Advance, outcome: RoundOutcome, names: dict[int, str]
) -> list[str]:
    """The byes, the best non-winners and the next round, in sentences."""
    lines = []
    if decision.byes:
        lines.append(
            ngettext(
                "%(players)s had a bye and goes on.",
                "%(players)s had byes and go on.",
                len(decision.byes),
            )
            % {"players": ", ".join(names.get(p, "?") for p in decision.byes)}
        )
    if decision.filled:
        line = _(
            "Best non-winners taken to fill the tables (by total payout, then match points, "
            "then the draw): %(players)s."
        ) % {"players": ", ".join(names.get(p, "?") for p in decision.filled)}
        if decision.next_out is not None:
            last, out = decision.filled[-1], decision.next_out
            criterion = decision.fill_decided_by
            if criterion == "draw":
                line += " " + _("%(last)s is ahead of %(out)s by the event's draw.") % {
                    "last": names.get(last, "?"),
                    "out": names.get(out, "?"),
                }
            else:
                line += " " + _(
                    "%(last)s is ahead of %(out)s by %(criterion)s (%(mine)s against %(theirs)s)."
                ) % {
                    "last": names.get(last, "?"),
                    "out": names.get(out, "?"),
                    "criterion": criterion_label(criterion),
                    "mine": _value(outcome, last, criterion),
                    "theirs": _value(outcome, out, criterion),
                }
        lines.append(line)
    n = len(decision.players)
    lines.append(
        (
            _("Round %(next)s is the final: %(n)s players.")
            if decision.final
            else _("Round %(next)s: %(n)s players.")
        )
        % {"next": number + 1, "n": n}
    )
    return lines
