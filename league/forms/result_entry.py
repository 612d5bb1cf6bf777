"""The score grid as a form: its inputs come from the game's own grid description.

`ScoreGrid` reads a posted grid (`catalogue.read_grid`) and lays out one block per deal for the
template `league/_score_grid.html`: the per-seat fields as rows of a small table with a column
per player, the fields asked once per deal beside it, each input with its value and its error,
and — once checked (`catalogue.check_grid`) — the deal's scores, payouts and running totals.
Deals are numbered from 1 here (the rows, the inputs' names and the API count from 0). Nothing
here names a game: labels, bounds, choices and `when` come from the description.

A grid is in one of the layouts the game's sheet rules offer (`catalogue.grid_layout_choices`:
the full grid, and for some games final scores only); the page offers the choice when there is
one, and the form posts its layout with the rows.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import catalogue


def _tr(text: str) -> str:
    return _(text) if text else ""


def problem_key(problem: Mapping[str, Any]) -> str:
    """Where a problem is shown: an input (``d0.points.2``), a field (``d0.points``), a deal
    (``d0``), or the grid as a whole (``""``)."""
    deal, field, seat = problem.get("deal"), problem.get("field"), problem.get("seat")
    if deal is None:
        return ""
    if field is None:
        return f"d{deal}"
    return catalogue.grid_input_name(deal, field, seat)


class ScoreGrid:
    """A game's score grid for one table: its rows, their problems and (checked) outcomes."""

    def __init__(
        self,
        event: Any,
        names: Sequence[str],
        rows: list[dict[str, Any]] | None = None,
        problems: Sequence[Mapping[str, Any]] = (),
        layout: Any = catalogue.FULL_GRID,
    ) -> None:
        self.event = event
        self.names = list(names)
        self.layouts = catalogue.grid_layout_choices(event.game, event.variant)
        # The layout asked for, checked by the services; one the game does not offer is shown
        # as the full grid (and refused when it is posted).
        self.layout = layout
        offered = {c["name"] for c in self.layouts}
        self.shown_layout = layout if layout in offered else catalogue.FULL_GRID
        seats = len(self.names)
        self.description = catalogue.sheet_grid(
            event.game, event.variant, self.shown_layout, n_seats=seats
        )
        self.fields = self.description["fields"]
        # A table of four of a game of three: its dealer sits out each deal (4/3 the deals).
        self.sits_out = seats > catalogue.game(event.game).seats
        self.n_deals = event.deals_for(seats)
        self.n_rows = max(self.n_deals, len(rows or []))
        self.rows = list(rows or [])
        self.problems = list(problems)
        self.check: dict[str, Any] | None = None

    @classmethod
    def from_data(cls, event: Any, names: Sequence[str], data: Mapping[str, Any]) -> ScoreGrid:
        """The grid as posted (inputs named by `catalogue.grid_input_name`, its layout by
        `layout`; none: the full grid)."""
        layout = data.get("layout") or catalogue.FULL_GRID
        n_deals = event.deals_for(len(names))
        rows, problems = catalogue.read_grid(
            event.game, event.variant, n_deals, data.get, layout, n_seats=len(names)
        )
        return cls(event, names, rows, problems, layout)

    def layout_choices(self) -> list[dict[str, Any]]:
        """The layouts to choose between (none when the game has one): label, help, whether
        it is the one shown."""
        if len(self.layouts) < 2:
            return []
        return [
            {
                "name": c["name"],
                "label": _tr(c["label"]),
                "help": _tr(c["help"]),
                "current": c["name"] == self.shown_layout,
            }
            for c in self.layouts
        ]

    def run_check(self) -> dict[str, Any]:
        """Score the rows as far as they are right; collect every problem once per place."""
        check = catalogue.check_grid(
            self.event.game,
            self.event.variant,
            self.rows,
            n_seats=len(self.names),
            n_deals=self.n_deals,
            layout=self.layout,
        )
        seen = {problem_key(p) for p in self.problems}
        for problem in check["problems"]:
            key = problem_key(problem)
            if key not in seen:
                self.problems.append(problem)
                seen.add(key)
        self.check = check
        return check

    @property
    def ready(self) -> bool:
        """Checked, with no problem: the grid is what the rules will count."""
        return self.check is not None and not self.problems and self.check["sheet"] is not None

    def add_problems(self, problems: Sequence[Mapping[str, Any]]) -> None:
        seen = {problem_key(p) for p in self.problems}
        self.problems += [p for p in problems if problem_key(p) not in seen]

    # --- what a person reads ------------------------------------------------------------

    def _label(self, name: str | None) -> str:
        for field in self.fields:
            if field["name"] == name:
                return _tr(field["label"])
        return ""

    def problem_text(self, problem: Mapping[str, Any]) -> str:
        """A problem as a person reads it, deals from 1: "Deal 2 · Tricks taken · Ann: …"."""
        parts = []
        if problem.get("deal") is not None:
            parts.append(_("Deal %(n)s") % {"n": problem["deal"] + 1})
        if problem.get("field"):
            parts.append(self._label(problem["field"]) or problem["field"])
        seat = problem.get("seat")
        if seat is not None and 0 <= seat < len(self.names):
            parts.append(self.names[seat])
        reason = problem.get("reason") or problem.get("message", "")
        return f"{' · '.join(parts)}: {reason}" if parts else reason

    def errors(self) -> dict[str, str]:
        """Each place's problem (its reason only: it is shown beside its input)."""
        out: dict[str, str] = {}
        for problem in self.problems:
            out.setdefault(problem_key(problem), problem.get("reason") or problem["message"])
        return out

    def summary(self) -> list[str]:
        return [self.problem_text(p) for p in self.problems]

    def _value(self, row: Mapping[str, Any], field: Mapping[str, Any], seat: int | None) -> Any:
        value = row.get(field["name"])
        if seat is not None:
            value = value[seat] if isinstance(value, list) and seat < len(value) else None
        return value

    def _asked(self, row: Mapping[str, Any]) -> set[str]:
        asked: set[str] = set()
        for field in self.fields:
            if all(name in asked and row.get(name) == value for name, value in field["when"]):
                asked.add(field["name"])
        return asked

    def deals(self) -> list[dict[str, Any]]:
        """One block per deal for the template, deals numbered from 1."""
        errors = self.errors()
        n = len(self.names)
        checked = dict(enumerate(self.check["deals"])) if self.check else {}
        out = []
        for d in range(self.n_rows):
            row = self.rows[d] if d < len(self.rows) else {}
            asked = self._asked(row)
            seat_fields, deal_fields = [], []
            for field in self.fields:
                key = catalogue.grid_input_name(d, field["name"])
                item = {
                    "name": field["name"],
                    "key": key,
                    "kind": field["kind"],
                    "label": _tr(field["label"]),
                    "help": _tr(field["help"]),
                    "min": field["min"],
                    "max": field["max"],
                    "sum": field["sum"],
                    "when": json.dumps(field["when"]),
                    "inactive": field["name"] not in asked,
                    "error": errors.get(key, ""),
                }
                if field["per_seat"]:
                    item["inputs"] = [
                        {
                            "name": catalogue.grid_input_name(d, field["name"], s),
                            "value": _shown(self._value(row, field, s)),
                            "aria": f"{item['label']}, {self.names[s]}",
                            "error": errors.get(catalogue.grid_input_name(d, field["name"], s)),
                            "sits_out": self.sits_out and s == d % n,
                        }
                        for s in range(n)
                    ]
                    seat_fields.append(item)
                else:
                    value = self._value(row, field, None)
                    item["value"] = _shown(value)
                    item["checked"] = value is True
                    item["options"] = self._options(field, value)
                    deal_fields.append(item)
            outcome = checked.get(d)
            dealer = outcome["dealer"] if outcome else d % n
            out_rows = [
                (label, key, [signed(v, key) for v in outcome[key]] if outcome else [""] * n)
                for label, key in self._out_labels()
            ]
            if outcome and self.sits_out:  # the sitter's deal figures: none (the running total
                for _label, key, cells in out_rows:  # is his all the same)
                    if key != "running_payouts":
                        cells[dealer] = "\u2013"
            out.append(
                {
                    "index": d,
                    "number": d + 1,
                    "dealer": self.names[dealer],
                    "sits_out": self.sits_out,
                    "seat_fields": seat_fields,
                    "deal_fields": deal_fields,
                    "outcome": outcome,
                    "out_rows": out_rows,
                    "error": errors.get(f"d{d}", ""),
                }
            )
        return out

    @staticmethod
    def _out_labels() -> list[tuple[str, str]]:
        return [
            (_("Score"), "scores"),
            (_("Payout"), "payouts"),
            (_("Running total"), "running_payouts"),
        ]

    @property
    def total_rows(self) -> list[tuple[str, str, list[str]]]:
        """The totals table: scores and payouts per seat, after the last good deal."""
        totals = self.totals()
        n = len(self.names)
        return [
            (_("Score"), "scores", [str(v) for v in totals["scores"]] if totals else [""] * n),
            (
                _("Payout"),
                "payouts",
                [signed(v, "payouts") for v in totals["payouts"]] if totals else [""] * n,
            ),
        ]

    @property
    def winners_text(self) -> str:
        totals = self.totals()
        if not totals or not totals["complete"]:
            return ""
        return _("Won by: %(names)s") % {"names": ", ".join(totals["winners"])}

    def _options(self, field: Mapping[str, Any], value: Any) -> list[tuple[str, str, bool]]:
        if field["kind"] == "choice":
            options = [(v, _tr(label)) for v, label in field["choices"]]
        elif field["kind"] == "seat":
            options = [(str(s), name) for s, name in enumerate(self.names)]
        else:
            return []
        blank = _tr(field["blank"]) if field["optional"] else "—"
        shown = _shown(value)
        return [("", blank, shown == ""), *[(v, label, v == shown) for v, label in options]]

    def totals(self) -> dict[str, Any] | None:
        """The checked deals' totals per seat (the running total after the last good deal)."""
        if not self.check or not self.check["deals"]:
            return None
        last = self.check["deals"][-1]
        scored = self.check["scored"]
        return {
            "scores": last["running_scores"],
            "payouts": last["running_payouts"],
            "winners": [self.names[w] for w in scored["winners"]] if scored else [],
            "complete": bool(scored and scored["complete"]),
        }

    def config(self, check_url: str) -> dict[str, Any]:
        """What the page's script reads: where to check, the fields (labels translated)."""
        fields = [
            {**f, "label": _tr(f["label"]), "help": _tr(f["help"]), "blank": _tr(f["blank"])}
            for f in self.fields
        ]
        return {
            "checkUrl": check_url,
            "layout": self.shown_layout,
            "fields": fields,
            "names": self.names,
            "rows": self.n_rows,
        }

    def as_json(self) -> dict[str, Any]:
        """The check's answer to the page's script: outcomes, totals and problems by place."""
        deals = [
            {
                "index": i,
                "dealer": self.names[d["dealer"]],
                "scores": d["scores"],
                "payouts": d["payouts"],
                "running_payouts": d["running_payouts"],
                "running_scores": d["running_scores"],
                "sitter": d.get("sitter"),  # a table of four's: shown as a dash, not 0
            }
            for i, d in enumerate(self.check["deals"] if self.check else [])
        ]
        return {
            "deals": deals,
            "totals": self.totals(),
            "problems": [
                {
                    "key": problem_key(p),
                    "reason": p.get("reason") or p["message"],
                    "text": self.problem_text(p),
                }
                for p in self.problems
            ],
            "ready": self.ready,
        }

    def describe_row(self, d: int) -> list[str]:
        """A grid row as text, field by field ("Tricks taken — Ann: 10 · Bo: 2 · Cy: 4"), for the
        side-by-side view of two versions."""
        row = self.rows[d] if d < len(self.rows) else {}
        asked = self._asked(row)
        lines = []
        for field in self.fields:
            if field["name"] not in asked:
                continue
            value = row.get(field["name"])
            if field["per_seat"]:
                cells = " · ".join(
                    f"{name}: {_shown(v) or '—'}"
                    for name, v in zip(self.names, value or [], strict=False)
                )
                lines.append(f"{_tr(field['label'])} — {cells}")
                continue
            if field["kind"] == "bool":
                if value:
                    lines.append(_tr(field["label"]))
                continue
            if value is None:
                if field["optional"] and field["blank"]:
                    lines.append(f"{_tr(field['label'])}: {_tr(field['blank'])}")
                continue
            if field["kind"] == "seat" and isinstance(value, int) and value < len(self.names):
                shown = self.names[value]
            elif field["kind"] == "choice":
                shown = next((_tr(lab) for v, lab in field["choices"] if v == value), str(value))
            else:
                shown = str(value)
            lines.append(f"{_tr(field['label'])}: {shown}")
        return lines


def signed(value: int, key: str) -> str:
    """A payout with its sign (+2, 0, and a minus sign for -1); a score without a plus."""
    if value == 0:
        return "0"
    text = str(value) if key == "scores" else f"{value:+d}"
    return text.replace("-", "\u2212")


def _shown(value: Any) -> str:
    """An input's value as text: blank for nothing, "1" for a tick."""
    if value is None or value is False:
        return ""
    if value is True:
        return "1"
    return str(value)


class ResultDetailsForm(forms.Form):
    """What goes with a grid the organizer enters: forfeits (or, over the table, absences), the
    reason of a correction, and the version of the result the organizer saw (0: none)."""

    forfeited = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Forfeited"),
        help_text=gettext_lazy("only when the match ended early"),
    )
    reason = forms.CharField(
        required=False,
        max_length=300,
        label=gettext_lazy("Why the correction"),
        help_text=gettext_lazy("required for a correction"),
    )
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=32767)
    # Over the table, before any result: players who did not come or left after the deals
    # typed (league.services.absences); the grid's deals are those played before.
    absent = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Absent"),
        help_text=gettext_lazy(
            "did not come, or left after the deals typed above: they forfeit, the others win"
        ),
    )

    def __init__(self, *args: Any, names: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["forfeited"].choices = [(str(s), name) for s, name in enumerate(names)]
        self.fields["absent"].choices = self.fields["forfeited"].choices

    def forfeited_seats(self) -> list[int]:
        return sorted(int(s) for s in self.cleaned_data["forfeited"])

    def absent_seats(self) -> list[int]:
        return sorted(int(s) for s in self.cleaned_data["absent"])


class RejectForm(forms.Form):
    """A player's reason for rejecting a grid submitted at their table."""

    reason = forms.CharField(
        max_length=300, label=gettext_lazy("What is wrong"), widget=forms.TextInput
    )
