"""The admin's view of the league: the reports about players, for staff to read and handle.

Everything else of the league is run from its own pages and services (organizers are not
staff); the reports are staff's alone.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from league.models import PlayerReport
from league.services.reports import mark_handled


@admin.register(PlayerReport)
class PlayerReportAdmin(admin.ModelAdmin):
    list_display = ["created_at", "player", "reason", "reporter", "handled", "handled_by"]
    list_filter = ["handled", "reason", "created_at"]
    search_fields = ["player__name", "reporter__username", "text"]
    list_select_related = ["player", "reporter", "handled_by"]
    date_hierarchy = "created_at"
    readonly_fields = [
        "player",
        "reporter",
        "reason",
        "text",
        "chat_table",
        "conversation",
        "created_at",
        "handled",
        "handled_at",
        "handled_by",
    ]
    actions = ["mark_as_handled", "mark_as_open", "mute_in_chat"]
    exclude = ["chat_lines"]  # shown as `conversation`, one line each

    @admin.display(description=_("the conversation"))
    def conversation(self, report: PlayerReport) -> str:
        """A report from a table's chat: its lines as they stood, plain text (escaped)."""
        lines = report.chat_lines if isinstance(report.chat_lines, list) else []
        if not lines:
            return "-"
        rows = [
            (
                str(line.get("at", ""))[:19].replace("T", " "),
                line.get("name", ""),
                line.get("text") or f"[{line.get('phrase')}]",
            )
            for line in lines
            if isinstance(line, dict)
        ]
        return format_html(
            '<ol class="chat-conversation">{}</ol>',
            format_html_join("", "<li>{} <strong>{}</strong>: {}</li>", rows),
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # reports come from the players' pages

    # Every member of staff reads and handles reports (no model permission needed); the change
    # page only shows a report (every field is read-only), the actions below are the writes.
    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_staff)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)

    @admin.action(description=_("Mark the selected reports handled"))
    def mark_as_handled(self, request: HttpRequest, queryset: QuerySet[PlayerReport]) -> None:
        n = mark_handled(queryset, by=request.user)
        self.message_user(
            request,
            ngettext("%(n)d report marked handled.", "%(n)d reports marked handled.", n) % {"n": n},
            messages.SUCCESS,
        )

    @admin.action(description=_("Mute the reported accounts in every table's chat"))
    def mute_in_chat(self, request: HttpRequest, queryset: QuerySet[PlayerReport]) -> None:
        """Staff's site-wide chat mute (accounts' `chat_muted`, docs/chat.md) of the accounts
        of the reported players; a player without an account has no chat to mute."""
        users = queryset.exclude(player__user=None).values("player__user")
        n = get_user_model().objects.filter(pk__in=users).update(chat_muted=True)
        self.message_user(
            request,
            ngettext("%(n)d account muted in the chat.", "%(n)d accounts muted in the chat.", n)
            % {"n": n},
            messages.SUCCESS,
        )

    @admin.action(description=_("Open the selected reports again"))
    def mark_as_open(self, request: HttpRequest, queryset: QuerySet[PlayerReport]) -> None:
        n = mark_handled(queryset, by=request.user, handled=False)
        self.message_user(
            request,
            ngettext("%(n)d report opened again.", "%(n)d reports opened again.", n) % {"n": n},
            messages.SUCCESS,
        )
