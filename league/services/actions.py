"""What an organizer may do to an event now: one place decides, for the services (which refuse)
and the pages (which show only the buttons and forms that would be accepted).

Each organizer action has a **rule** here: a function of the event's state (and of the round,
entry or fixture the action is on) that returns why the action cannot be done now, or None. A
service calls `check(by, event, action, target)` — the account first (`check_can_manage`:
PermissionDenied), then the rule (LeagueError with its reason) — and the templates ask the same
rule through `{% can event "action" target as ok %}` (`league/templatetags/organizer_actions.py`):
a closed event shows no Generate, Add, Withdraw, Edit or Correct, because the rule that refuses
the post is the rule that hides the button.

A rule decides by the state the page can see (closed, draft or published, withdrawn, played,
rounds left, results waiting); a service may still refuse after it, for what needs the whole
plan (too few players for a table, a decided knockout) — with its reason, nothing changed.

`Facts` reads what the rules need once per event (a page asks many rules: the entries page
one per row) and is made fresh for every service call, so a service never decides on a
stale read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.db.models import Exists, OuterRef
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.errors import LeagueError, LeagueFault
from league.models import Bye, Entry, Event, Fixture, Result, Round, Seat
from league.services.entering import check_format, finished_problem, late_entry_problem
from league.services.permissions import can_manage, check_can_manage


class Facts:
    """The event's state as the rules read it, each part loaded once (on first use)."""

    def __init__(self, event: Event) -> None:
        self.event = event

    @cached_property
    def rounds(self) -> list[tuple[int, str]]:
        """(number, status) of every round, drafts included, in order."""
        return list(self.event.round_set.order_by("number").values_list("number", "status"))

    @property
    def last(self) -> tuple[int, str] | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def draft_number(self) -> int | None:
        return next((n for n, s in self.rounds if s == Round.Status.DRAFT), None)

    @cached_property
    def waiting(self) -> list[tuple[int, int]]:
        """(round, table) of every table of a published round that has no counting result."""
        counted = Result.objects.filter(fixture=OuterRef("pk"), current=True)
        return list(
            Fixture.objects.filter(round__event=self.event, round__status=Round.Status.PUBLISHED)
            .exclude(Exists(counted))
            .order_by("round__number", "number")
            .values_list("round__number", "number")
        )

    @cached_property
    def late_entry_problem(self) -> str | None:
        return late_entry_problem(self.event) if self.rounds else None

    def played(self, entry: Entry) -> bool:
        """Whether the entrant has played (`has_played`); the entries page annotates `played`."""
        known = getattr(entry, "played", None)
        return has_played(entry) if known is None else bool(known)


def has_played(entry: Entry) -> bool:
    """Whether the entrant has a seat or a bye in any round of the event (drafts included)."""
    seated = Seat.objects.filter(fixture__round__event_id=entry.event_id, player_id=entry.player_id)
    byes = Bye.objects.filter(round__event_id=entry.event_id, player_id=entry.player_id)
    return seated.exists() or byes.exists()


Rule = Callable[[Facts, Any], "str | None"]
RULES: dict[str, Rule] = {}


def rule(name: str) -> Callable[[Rule], Rule]:
    """Register the rule of one action (decorator)."""

    def add(fn: Rule) -> Rule:
        if name in RULES:
            raise ValueError(f"two rules for the action {name!r}")
        RULES[name] = fn
        return fn

    return add


def closed(event: Event) -> str | None:
    """A closed event takes no more changes: rounds, entries, results, settings."""
    return _("this event is closed") if event.status == Event.Status.CLOSED else None


def _rule(action: str) -> Rule:
    try:
        return RULES[action]
    except KeyError:
        raise LeagueFault(f"no rule for the organizer action {action!r}") from None


def problem_now(event: Event, action: str, target: Any = None, facts: Facts | None = None) -> Any:
    """Why `action` cannot be done to the event now (its rule's reason), or None. No account
    is looked at: `check` and `may` add that."""
    return _rule(action)(facts or Facts(event), target)


def check(by: Any, event: Event, action: str, target: Any = None) -> None:
    """Refuse the action: PermissionDenied for an account that may not manage the event, then
    LeagueError with the rule's reason. The first lines of an organizer service."""
    check_can_manage(by, event)
    why = problem_now(event, action, target)
    if why:
        raise LeagueError(why)


@dataclass(frozen=True)
class Allowed:
    """A rule's answer for a page: true if the action would be accepted; `reason` says why not
    to the event's organizers (empty for anyone else, who sees no organizer buttons at all)."""

    ok: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.ok


def may(user: Any, event: Event, action: str, target: Any = None, **memo: Any) -> Allowed:
    """Whether the account may do the action now, for a page. `memo` (optional `facts` and
    `manager`) lets a page that asks many times read the event once."""
    _rule(action)  # an unknown action is a bug, whoever asks
    manager = memo["manager"] if "manager" in memo else can_manage(user, event)
    if not manager:
        return Allowed(False)
    why = problem_now(event, action, target, memo.get("facts"))
    return Allowed(not why, why or "")


# --- the rules ---------------------------------------------------------------------------------
# Their texts are the ones the services raised before this module: pages, the API and the tests
# read them.


@rule("edit")
def _edit(facts: Facts, target: Any) -> str | None:
    return closed(facts.event)


@rule("publish_event")
def _publish_event(facts: Facts, target: Any) -> str | None:
    if facts.event.visibility == Event.Visibility.PUBLISHED:
        return _("the event is published already")
    return None


@rule("delete")
def _delete(facts: Facts, target: Any) -> str | None:
    event = facts.event
    if event.visibility != Event.Visibility.DRAFT:
        return _("only a draft event can be deleted: %(name)s is published") % {"name": event.name}
    if any(s == Round.Status.PUBLISHED for _n, s in facts.rounds):
        return _("this draft has a published round: it cannot be deleted")
    return None


def close_problem(facts: Facts) -> str | None:
    """What keeps an open event from closing: a draft round, or a published table without a
    result (an online match there would be thrown away)."""
    if facts.draft_number is not None:
        return _("round %(n)s is a draft: publish or discard it before closing") % {
            "n": facts.draft_number
        }
    if facts.waiting:
        tables = ", ".join(
            _("round %(round)s table %(table)s") % {"round": r, "table": t}
            for r, t in facts.waiting[:10]
        )
        return _("these tables have no result yet: %(tables)s") % {"tables": tables}
    return None


@rule("close")
def _close(facts: Facts, target: Any) -> str | None:
    return closed(facts.event) or close_problem(facts)


@rule("generate_round")
def _generate_round(facts: Facts, target: Any) -> str | None:
    """The state part of `generate_round`; the planner's own refusals come after it."""
    event = facts.event
    if why := closed(event):
        return why
    if event.check_in_open:  # the plan takes who is checked in: not while that may change
        return _("self check-in is open: close it before planning the round")
    last = facts.last
    if last and last[1] == Round.Status.DRAFT:
        return _("round %(n)s is still a draft: publish or discard it first") % {"n": last[0]}
    number = last[0] + 1 if last else 1
    if number > event.rounds:
        return ngettext(
            "the %(n)s round of this event exists",
            "all %(n)s rounds of this event exist",
            event.rounds,
        ) % {"n": event.rounds}
    fmt = check_format(event.format)
    if event.status == Event.Status.FINISHED:  # its last round decided (a knockout's final)
        return _(fmt.decided_message)
    if fmt.needs_results and last is not None:
        missing = sum(1 for r, _t in facts.waiting if r == last[0])
        if missing:
            return _(
                "round %(number)s still waits for %(missing)s result(s); %(format)s rounds "
                "need them"
            ) % {"number": last[0], "missing": missing, "format": _(fmt.title)}
    return None


@rule("enter")
def _enter(facts: Facts, target: Any) -> str | None:
    """Entering players (one, or an import)."""
    return closed(facts.event) or finished_problem(facts.event) or facts.late_entry_problem


@rule("check_in")
def _check_in(facts: Facts, entry: Entry) -> str | None:
    """Checking an entrant in (or out: `check_out`, which a withdrawn entrant needs not)."""
    if why := closed(facts.event):
        return why
    if entry.withdrawn:
        return _("%(name)s has withdrawn: later rounds skip them") % {"name": entry.player.name}
    return None


@rule("check_out")
def _check_out(facts: Facts, entry: Entry) -> str | None:
    return closed(facts.event)


@rule("withdraw")
def _withdraw(facts: Facts, entry: Entry) -> str | None:
    if why := closed(facts.event):
        return why
    if entry.withdrawn:
        return _("%(name)s has already withdrawn") % {"name": entry.player.name}
    return None


@rule("reinstate")
def _reinstate(facts: Facts, entry: Entry) -> str | None:
    if why := closed(facts.event):
        return why
    if not entry.withdrawn:
        return _("%(name)s has not withdrawn") % {"name": entry.player.name}
    later = facts.last is not None and facts.last[0] > entry.withdrawn_after_round
    if later and facts.late_entry_problem:
        return _(
            "%(name)s cannot come back: a %(format)s event takes nobody in once a later round "
            "is planned"
        ) % {"name": entry.player.name, "format": facts.event.format_name}
    return None


@rule("remove_entry")
def _remove_entry(facts: Facts, entry: Entry) -> str | None:
    if why := closed(facts.event):
        return why
    if facts.played(entry):
        return _(
            "%(name)s is in a round of this event (a draft counts: discard it first); "
            "withdraw them instead"
        ) % {"name": entry.player.name}
    return None


def _draft_only(facts: Facts, round_: Round, published: str) -> str | None:
    if why := closed(facts.event):
        return why
    if round_.status != Round.Status.DRAFT:
        return published
    return None


@rule("publish_round")
def _publish_round(facts: Facts, round_: Round) -> str | None:
    return _draft_only(facts, round_, _("round %(n)s is already published") % {"n": round_.number})


@rule("swap")
def _swap(facts: Facts, round_: Round) -> str | None:
    return _draft_only(facts, round_, _("only a draft round can be changed"))


@rule("sections")
def _sections(facts: Facts, round_: Round) -> str | None:
    """A duplicate round's sections and deal sets (`league.services.sections`)."""
    if not facts.event.is_duplicate:
        return _("only a duplicate event's rounds have sections")
    return _draft_only(facts, round_, _("the sections of a published round cannot change"))


@rule("discard")
def _discard(facts: Facts, round_: Round) -> str | None:
    return _draft_only(facts, round_, _("a published round cannot be discarded"))


@rule("schedule")
def _schedule(facts: Facts, round_: Round) -> str | None:
    """A round's start and deadline (`league.services.schedule.set_round_schedule`)."""
    return closed(facts.event)


@rule("record_result")
def _record_result(facts: Facts, fixture: Fixture) -> str | None:
    """Entering or correcting a table's result, approving or setting aside a grid from the
    table (`league.services.results.record_result`, `table_results`)."""
    if why := closed(facts.event):
        return why
    if fixture.round.status != Round.Status.PUBLISHED:
        return _("results can be entered only for a published round")
    return None


def counting_result(fixture: Fixture) -> Result | None:
    """The fixture's counting result: as its page prefetched it (`counting`), else read."""
    counting = getattr(fixture, "counting", None)
    if counting is not None:
        return counting[0] if counting else None
    return fixture.results.filter(current=True).first()


@rule("mark_absent")
def _mark_absent(facts: Facts, fixture: Fixture) -> str | None:
    """Marking seats of a table absent (`league.services.absences.mark_absent`)."""
    if why := closed(facts.event):
        return why
    if fixture.round.status != Round.Status.PUBLISHED:
        return _("absences are marked at the tables of a published round only")
    if counting_result(fixture) is not None:
        return _("table %(n)s already has a result; enter a correction with a reason") % {
            "n": fixture.number
        }
    return None


@rule("undo_absence")
def _undo_absence(facts: Facts, fixture: Fixture) -> str | None:
    """Taking a no-show's absence back when they arrive late (`absences.undo_absence`, which
    also asks the table whether a deal was played there)."""
    if why := closed(facts.event):
        return why
    result = counting_result(fixture)
    if result is None or result.source != Result.Source.ABSENCE:
        return _("table %(n)s has no absence to take back") % {"n": fixture.number}
    if result.scored["deals"]:
        return _(
            "deals were played before the absence: it stands (enter a correction with a "
            "reason instead)"
        )
    number = fixture.round.number
    later = facts.last is not None and facts.last[0] > number
    if later and check_format(facts.event.format).needs_results:
        return _(
            "round %(next)s was made from this round's results: the absence can no longer be "
            "taken back"
        ) % {"next": number + 1}
    return None
