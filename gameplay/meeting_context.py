"""What the lobby page and My games show of meeting people: your seek and its waiting state,
the open seeks, the challenges to you and yours, and the words the page's script needs
(`static/js/people.js`). A fixed number of queries: the open seeks (yours among them) and
your challenges, one each.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext, ngettext

from gameplay import paces
from gameplay.meeting_forms import ChallengeForm, SeekForm
from gameplay.models import Challenge, Seek
from gameplay.services import challenges, seeks
from games import catalogue

MOST_SEEKS_LISTED = 30  # open seeks shown on the page (the script re-reads the list)


def pace_label(name: str) -> str:
    found = paces.PACES.find(name)
    return str(found.label) if found else name


def seek_row(seek: Seek, user: Any) -> dict[str, Any]:
    return {
        "seek": seek,
        "game_name": catalogue.display_name(seek.game),
        "pace_label": pace_label(seek.pace),
        "mine": seek.user_id == getattr(user, "pk", None),
    }


def status_words() -> dict[str, str]:
    """A challenge's status as a person reads it."""
    return {
        "pending": gettext("waiting for an answer"),
        "accepted": gettext("accepted"),
        "declined": gettext("declined"),
        "withdrawn": gettext("withdrawn"),
        "expired": gettext("expired"),
    }


def challenge_row(ch: Challenge, user: Any) -> dict[str, Any]:
    return {
        "status_label": status_words().get(ch.status, ch.status),
        "challenge": ch,
        "game_name": catalogue.display_name(ch.game),
        "pace_label": pace_label(ch.pace),
        "incoming": ch.challenged_id == user.pk,
    }


def waiting_words() -> dict[int, str]:
    """ "Waiting for N more players…" for every N a table can lack (the script picks one)."""
    most = max(g.seats for g in catalogue.games())
    return {
        n: ngettext("Waiting for %(n)d more player…", "Waiting for %(n)d more players…", n)
        % {"n": n}
        for n in range(1, most)
    }


def script_words() -> dict[str, Any]:
    """Everything `people.js` writes on the page, translated here."""
    return {
        "waiting": waiting_words(),
        "bots_soon": gettext("Bots take the empty seats soon…"),
        "starting": gettext("Found! Going to the table…"),
        "games": {g.name: g.display_name for g in catalogue.games()},
        "paces": {p.name: str(p.label) for p in paces.PACES.values()},
        "rated": gettext("rated"),
        "casual": gettext("casual"),
        "you": gettext("you"),
        "join": gettext("Join"),
        "accept": gettext("Accept"),
        "decline": gettext("Decline"),
        "withdraw": gettext("Withdraw"),
        "no_seeks": gettext("Nobody is seeking right now: seek, and others will see you here."),
        "challenged_you": gettext("%(name)s challenges you"),
        "you_challenged": gettext("You challenged %(name)s"),
        "statuses": status_words(),
        "go": gettext("Go to the table"),
    }


def people_context(
    user: Any,
    *,
    seek_form: SeekForm | None = None,
    challenge_form: ChallengeForm | None = None,
) -> dict[str, Any]:
    """The lobby's "Play with people now" and "Challenge a player" blocks."""
    listed = list(seeks.open_seeks(expire=False)[:MOST_SEEKS_LISTED])
    signed_in = getattr(user, "is_authenticated", False)
    mine = next((s for s in listed if signed_in and s.user_id == user.pk), None)
    if mine is None and signed_in and len(listed) == MOST_SEEKS_LISTED:  # a busy lobby
        mine = next(iter(seeks.open_seeks(expire=False).filter(user=user)), None)
    context: dict[str, Any] = {
        "seek_form": seek_form or SeekForm(),
        "challenge_form": challenge_form or ChallengeForm(),
        "open_seeks": [seek_row(s, user) for s in listed],
        "my_seek": None,
        "incoming_challenges": [],
        "sent_challenges": [],
        "people_words": script_words(),
    }
    if mine is not None:
        seeks.heard(mine)  # the page that shows one's seek keeps it alive, like its poll
        elapsed = max(0, int((timezone.now() - mine.created_at).total_seconds()))
        context["my_seek"] = {
            **seek_row(mine, user),
            "elapsed": elapsed,
            "bots_label": gettext("people only")
            if mine.bots_after is None
            else gettext("bots after %(n)d s") % {"n": mine.bots_after},
            "seats": catalogue.game(mine.game).seats,
            "bots_in": None if mine.bots_after is None else max(0, mine.bots_after - elapsed),
        }
    if signed_in:
        rows = [challenge_row(c, user) for c in challenges.my_challenges(user, expire=False)]
        context["incoming_challenges"] = [
            r for r in rows if r["incoming"] and r["challenge"].status == challenges.PENDING
        ]
        context["sent_challenges"] = [r for r in rows if not r["incoming"]]
    return context


def incoming_context(user: Any) -> dict[str, Any]:
    """My games: the challenges waiting for your answer (one query)."""
    rows = [challenge_row(c, user) for c in challenges.incoming(user, expire=False)]
    return {"incoming_challenges": rows, "people_words": script_words()}
