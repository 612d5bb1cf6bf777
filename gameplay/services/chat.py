"""A table's chat (docs/chat.md): who may write and read what, the limits, the history, reports.

Players and spectators have a channel each and never read the other's, during the match or
after it; there is no channel between two players alone. A line is free text or a preset phrase
(sent as a code, shown in each reader's language). The table's `chat` flag says whether its
chat is on at all: friendly tables have it, an event's tables only when the organizer chose so,
an embargoed (duplicate) table never. Every refusal is a `TableError` with one of the protocol's
codes and a `chat_...` reason, and changes nothing.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from gameplay.models import ChatLine, Seat, Table
from gameplay.services.errors import TableError
from gameplay.signals import ReportRefused, chat_reported

# The preset phrases: their codes travel, each reader sees them in their own language.
PHRASES = {
    "hello": _("Hello"),
    "good_luck": _("Good luck"),
    "well_played": _("Well played"),
    "thanks": _("Thanks"),
    "sorry": _("Sorry"),
    "good_game": _("Good game"),
}
REPORT_LINES = 50  # the most recent lines of the channel a report attaches
MAX_NOTE = 500  # a report's note


def max_chars() -> int:
    return int(getattr(settings, "CHAT_MAX_CHARS", 200))


def rate() -> tuple[int, int]:
    """(lines, seconds): one writer sends at most `lines` lines in any `seconds` at a table."""
    return int(getattr(settings, "CHAT_RATE_LINES", 5)), int(
        getattr(settings, "CHAT_RATE_SECONDS", 10)
    )


def channel_of(seat: int | None) -> str:
    """A seat writes and reads the players' channel, a spectator the spectators'."""
    return ChatLine.Channel.SPECTATORS if seat is None else ChatLine.Channel.PLAYERS


def payload(line: ChatLine) -> dict[str, Any]:
    """A line as the protocol sends it. `author` names the writer within the channel (a seat,
    `s1`, or a spectator's account, `u42`), for muting and reporting."""
    author = f"s{line.seat}" if line.seat is not None else f"u{line.user_id}"
    return {
        "id": line.pk,
        "channel": line.channel,
        "author": author,
        "name": line.name,
        "seat": line.seat,
        "text": line.text,
        "phrase": line.phrase or None,
        "at": line.created_at.isoformat(),
    }


def is_on(table_id: str) -> bool:
    """Whether the table's chat is on (never at an embargoed table, whatever its flag)."""
    return Table.objects.filter(pk=table_id, chat=True, embargoed=False).exists()


def history(table_id: str, seat: int | None) -> list[dict[str, Any]] | None:
    """The last `CHAT_HISTORY_LINES` lines of the connection's channel, oldest first; None when
    the table's chat is off (the connection is sent no chat at all)."""
    if not is_on(table_id):
        return None
    n = int(getattr(settings, "CHAT_HISTORY_LINES", 100))
    lines = ChatLine.objects.filter(table_id=table_id, channel=channel_of(seat)).order_by("-id")
    return [payload(line) for line in reversed(lines[:n])] if n else []


def _writer(table_id: str, seat: int | None, user: Any) -> tuple[Any, str]:
    """The account that writes (or reports) from this connection, and its name at the table:
    a seat's person (whoever connects with its token), or a logged-in spectator."""
    User = get_user_model()
    if seat is not None:
        row = Seat.objects.filter(table_id=table_id, number=seat).values("user_id", "name").first()
        account = None if row is None else User.objects.filter(pk=row["user_id"]).first()
        if account is None:  # a bot's seat, or an open one
            raise TableError("forbidden", "only people chat", reason="chat_people_only")
        return account, row["name"]
    if user is None or not getattr(user, "is_authenticated", False):
        raise TableError("forbidden", "log in to write in the chat", reason="chat_log_in")
    account = User.objects.filter(pk=user.pk).first()
    if account is None:
        raise TableError("forbidden", "log in to write in the chat", reason="chat_log_in")
    return account, account.get_username()


def parse_line(content: dict[str, Any]) -> tuple[str, str]:
    """(text, phrase) of a `chat` message: exactly one of them, checked; `TableError` else."""
    text, phrase = content.get("text"), content.get("phrase")
    if (text is None) == (phrase is None):
        raise TableError("bad_message", "chat needs a text or a phrase", reason="chat_empty")
    if phrase is not None:
        if phrase not in PHRASES:
            raise TableError("bad_message", "unknown phrase", reason="chat_unknown_phrase")
        return "", phrase
    if not isinstance(text, str):
        raise TableError("bad_message", "chat text must be a string", reason="chat_empty")
    # One line of plain text: control characters (line breaks too) become spaces.
    text = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    if not text:
        raise TableError("bad_message", "write something first", reason="chat_empty")
    if len(text) > max_chars():
        raise TableError(
            "bad_message",
            f"a chat line has at most {max_chars()} characters",
            reason="chat_too_long",
            params={"max": max_chars()},
        )
    return text, ""


def post(table_id: str, seat: int | None, user: Any, content: dict[str, Any]) -> dict[str, Any]:
    """Store one line from a connection (a seat, or a spectator with the account `user`) and
    return it as the protocol sends it, for the caller to send to the line's channel.

    Checks, the first that fails answers: the message (`bad_message`), the chat is on, the
    writer is a person, not muted by staff (`forbidden`), the writer's rate (`rate_limited`)."""
    text, phrase = parse_line(content)
    if not is_on(table_id):
        raise TableError("forbidden", "this table has no chat", reason="chat_off")
    with transaction.atomic():
        account, name = _writer(table_id, seat, user)
        # The account's row is the lock: two lines at once are counted one after the other.
        account = get_user_model().objects.select_for_update().get(pk=account.pk)
        if getattr(account, "chat_muted", False):
            raise TableError(
                "forbidden", "staff have muted this account in the chat", reason="chat_muted"
            )
        lines, seconds = rate()
        since = timezone.now() - timedelta(seconds=seconds)
        recent = ChatLine.objects.filter(table_id=table_id, user=account, created_at__gte=since)
        if recent.count() >= lines:
            raise TableError(
                "rate_limited",
                f"at most {lines} lines in {seconds} seconds",
                reason="chat_rate_limited",
                params={"lines": lines, "seconds": seconds},
            )
        line = ChatLine.objects.create(
            table_id=table_id,
            channel=channel_of(seat),
            seat=seat,
            user=account,
            name=name,
            text=text,
            phrase=phrase,
        )
    return payload(line)


def parse_report(content: dict[str, Any]) -> tuple[str, str]:
    """(author, note) of a `chat_report` message; `TableError("bad_message")` else."""
    author, note = content.get("author"), content.get("note", "")
    if not isinstance(author, str) or not 2 <= len(author) <= 32:
        raise TableError("bad_message", "chat_report needs the author of a line")
    if not isinstance(note, str) or len(note) > MAX_NOTE:
        raise TableError("bad_message", f"a report's note has at most {MAX_NOTE} characters")
    return author, note.strip()


def _lines_by(table_id: str, channel: str, author: str) -> Any:
    """The author's lines in the channel (`s1`: seat 1's; `u42`: account 42's)."""
    lines = ChatLine.objects.filter(table_id=table_id, channel=channel)
    kind, number = author[0], author[1:]
    if not number.isdigit() or kind not in "su":
        return lines.none()
    return lines.filter(seat=int(number)) if kind == "s" else lines.filter(user_id=int(number))


def report(table_id: str, seat: int | None, user: Any, content: dict[str, Any]) -> None:
    """File a report to staff about the author of lines in the reporter's channel, with the
    conversation attached (its last `REPORT_LINES` lines): `chat_reported`, whose receiver (the
    league's player reports) may refuse it (`ReportRefused`, then `forbidden`). Nothing is
    filed when the author wrote nothing here, or is the reporter."""
    author, note = parse_report(content)
    reporter, _name = _writer(table_id, seat, user)
    channel = channel_of(seat)
    last = _lines_by(table_id, channel, author).order_by("-id").values("user_id").first()
    if last is None or last["user_id"] is None:
        raise TableError("bad_message", "nobody wrote that here", reason="chat_unknown_author")
    if last["user_id"] == reporter.pk:
        raise TableError("bad_message", "you cannot report yourself", reason="chat_report_self")
    recent = ChatLine.objects.filter(table_id=table_id, channel=channel).order_by("-id")
    lines = [
        {
            "at": line.created_at.isoformat(),
            "name": line.name,
            "seat": line.seat,
            "text": line.text,
            "phrase": line.phrase or None,
        }
        for line in reversed(recent[:REPORT_LINES])
    ]
    try:
        with transaction.atomic():
            chat_reported.send(
                sender=None,
                table_ref=table_id,
                reporter_id=reporter.pk,
                user_id=last["user_id"],
                note=note,
                lines=lines,
            )
    except ReportRefused as exc:
        raise TableError("forbidden", str(exc), reason="chat_report_refused") from None
