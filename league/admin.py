"""The admin's view of the league: the reports about players and the fair-play flags, for
staff to read and decide on.

Everything else of the league is run from its own pages and services (organizers are not
staff); the reports and the flags are staff's alone.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.formats import date_format, number_format
from django.utils.html import format_html, format_html_join
from django.utils.timezone import localtime
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.catalogue import display_name
from games.registry import game_names, get_game
from league.errors import LeagueError
from league.fairplay import collusion, judging, review
from league.models import (
    FairPlayFlag,
    JudgedTable,
    Player,
    PlayerReport,
    RatedMatch,
    RatingHistory,
)
from league.ratings import compute as rating_maths
from league.services.reports import mark_handled

# The reporter's and the reported player's latest rated tables together, on a report's page.
TABLES_TOGETHER = 20


class StaffOnlyAdmin(admin.ModelAdmin):
    """Every member of staff reads and decides (no model permission needed); nobody else sees
    anything. The pages only show (read-only fields); the writes go through the services."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_staff)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)


@admin.register(PlayerReport)
class PlayerReportAdmin(StaffOnlyAdmin):
    list_display = ["created_at", "player", "reason", "reporter", "handled", "handled_by"]
    list_filter = ["handled", "reason", "created_at"]
    search_fields = ["player__name", "reporter__username", "text"]
    list_select_related = ["player", "reporter", "handled_by"]
    date_hierarchy = "created_at"
    # The one thing the page changes: "handled" (Save), through the service that records who.
    fields = [
        "player",
        "reporter",
        "reason",
        "text",
        "the_table",
        "conversation",
        "tables_together",
        "fair_play_flags",
        "collusion",
        "created_at",
        "handled",
        "handled_at",
        "handled_by",
    ]
    readonly_fields = [f for f in fields if f != "handled"]
    actions = ["mark_as_handled", "mark_as_open", "mute_in_chat"]
    exclude = ["chat_lines", "chat_table"]  # shown as `conversation` and `the_table`

    @admin.display(description=_("table"))
    def the_table(self, report: PlayerReport) -> str:
        """The table the report is about (chosen by the reporter, or the chat's), its replay."""
        if not report.chat_table:
            return "-"
        return format_html(
            '<a href="/tables/{}/replay/">{}</a>', report.chat_table, report.chat_table
        )

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

    @admin.display(description=_("rated tables together"))
    def tables_together(self, report: PlayerReport) -> str:
        """The reporter's and the reported player's latest rated tables together (replays)."""
        reporter = Player.objects.filter(user_id=report.reporter_id).first()
        if reporter is None:
            return "-"
        theirs = RatingHistory.objects.filter(player=report.player).values("match_id")
        shared = (
            RatedMatch.objects.filter(pk__in=theirs, changes__player=reporter)
            .exclude(table_ref="")
            .order_by("-finished_at")[:TABLES_TOGETHER]
        )
        rows = [
            (
                f"/tables/{m.table_ref}/replay/",
                date_format(localtime(m.finished_at), "SHORT_DATETIME_FORMAT"),
                display_name(m.game),
            )
            for m in shared
        ]
        if not rows:
            return "-"
        return format_html(
            "<ol>{}</ol>", format_html_join("", '<li><a href="{}">{}</a> {}</li>', rows)
        )

    @admin.display(description=_("fair-play flags"))
    def fair_play_flags(self, report: PlayerReport) -> str:
        """The farming flags that name the reported player, open or decided."""
        flags = FairPlayFlag.objects.filter(
            Q(player_a=report.player) | Q(player_b=report.player)
        ).order_by("-created_at")
        rows = [
            (
                reverse("admin:league_fairplayflag_change", args=[f.pk]),
                f.get_kind_display(),
                f.get_decision_display(),
            )
            for f in flags
        ]
        if not rows:
            return "-"
        return format_html(
            "<ul>{}</ul>", format_html_join("", '<li><a href="{}">{}</a> ({})</li>', rows)
        )

    @admin.display(description=_("collusion analytics"))
    def collusion(self, report: PlayerReport) -> str:
        """The suspect pairs (docs/fair-play.md, "Collusion") that name the reported player."""
        found = judging.suspects_with(report.player_id)
        if not found:
            return "-"
        names = _names({p for _, s in found for p in s.players})
        link = reverse("admin:league_judgedtable_changelist")
        rows = [
            (
                f"{link}#{pair_anchor(game, s.players[0], s.players[1])}",
                display_name(game),
                names.get(s.players[0], "?"),
                names.get(s.players[1], "?"),
                number_format(round(s.score, 1), 1),
            )
            for game, s in found
        ]
        return format_html(
            "<ul>{}</ul>",
            format_html_join("", '<li><a href="{}">{}</a>: {} → {} ({})</li>', rows),
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # reports come from the players' pages

    def save_model(
        self, request: HttpRequest, obj: PlayerReport, form: forms.ModelForm, change: bool
    ) -> None:
        """Save on a report's page marks it handled or open again, and records who."""
        if "handled" in form.changed_data:
            mark_handled([obj], by=request.user, handled=form.cleaned_data["handled"])

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


class FairPlayDecisionForm(forms.ModelForm):
    """The moderator's answer to a flag: clear or void, with the reason kept beside it."""

    class Meta:
        model = FairPlayFlag
        fields = ["decision", "reason"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "decision" in self.fields:
            self.fields["decision"].choices = [
                c for c in FairPlayFlag.Decision.choices if c[0] != FairPlayFlag.Decision.OPEN
            ]
            self.fields["decision"].required = True
        if "reason" in self.fields:
            self.fields["reason"].required = True


@admin.register(FairPlayFlag)
class FairPlayFlagAdmin(StaffOnlyAdmin):
    """Staff's list of the farming flags (docs/fair-play.md): the pair, the pattern, the matches
    held; an open flag's page takes the decision (league.fairplay.review.decide)."""

    form = FairPlayDecisionForm
    list_display = ["created_at", "game", "kind", "player_a", "player_b", "held", "decision"]
    list_filter = ["decision", "kind", "game"]
    search_fields = ["player_a__name", "player_b__name"]
    list_select_related = ["player_a", "player_b"]
    readonly_fields = [
        "game",
        "kind",
        "player_a",
        "player_b",
        "what_was_seen",
        "the_matches",
        "created_at",
        "decided_by",
        "decided_at",
    ]
    exclude = ["evidence", "matches"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[FairPlayFlag]:
        return super().get_queryset(request).annotate(n_matches=Count("matches"))

    @admin.display(description=_("matches"), ordering="n_matches")
    def held(self, flag: FairPlayFlag) -> int:
        return flag.n_matches

    @admin.display(description=_("what was seen"))
    def what_was_seen(self, flag: FairPlayFlag) -> str:
        return ", ".join(f"{key}: {value}" for key, value in sorted(flag.evidence.items())) or "-"

    @admin.display(description=_("the matches"))
    def the_matches(self, flag: FairPlayFlag) -> str:
        """Each match with its table (the replay), its seats and its fair-play review."""
        matches = flag.matches.order_by("finished_at", "id")
        names = dict(
            Player.objects.filter(pk__in={p for m in matches for p in m.players}).values_list(
                "pk", "name"
            )
        )
        rows = [
            (
                f"/tables/{m.table_ref}/replay/" if m.table_ref else "#",
                f"{m.finished_at:%Y-%m-%d %H:%M}",
                ", ".join(
                    f"{names.get(p, p)}{' ✗' if s in m.forfeited_seats else ''} {m.payouts[s]:+d}"
                    for s, p in enumerate(m.players)
                ),
                m.get_review_display(),
            )
            for m in matches
        ]
        return format_html(
            "<ol>{}</ol>",
            format_html_join("", '<li><a href="{}">{}</a> {} ({})</li>', rows),
        )

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fixed = list(self.readonly_fields)
        if obj is not None and obj.decision != FairPlayFlag.Decision.OPEN:
            fixed += ["decision", "reason"]  # decided once, for good
        return fixed

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # flags come from the ratings

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a decision stays on record

    def save_model(self, request: HttpRequest, obj: FairPlayFlag, form: Any, change: bool) -> None:
        """The decision goes through the service (staff only, a reason, once; re-rates)."""
        if "decision" not in form.changed_data and "reason" not in form.changed_data:
            return
        try:
            review.decide(
                obj.pk,
                by=request.user,
                decision=form.cleaned_data["decision"],
                reason=form.cleaned_data["reason"],
            )
        except LeagueError as error:
            self.message_user(request, str(error), messages.ERROR)


@admin.register(JudgedTable)
class CollusionAdmin(StaffOnlyAdmin):
    """ "Collusion analytics": the pairs whose decisions lean toward each other (docs/fair-play.md,
    "Collusion"), per game, with the evidence — the tables, the decisions that leaned furthest,
    what they cost and to whom it went. The judged tables themselves are not edited here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """A judged table has no page of its own (its raw decisions are the program's): staff
        land on the analytics, where its pairs and decisions are read."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        return HttpResponseRedirect(reverse("admin:league_judgedtable_changelist"))

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "title": _("Collusion analytics"),
            "opts": self.model._meta,
            "games": collusion_report(),
            "judged": JudgedTable.objects.filter(error="").count(),
            "failed": JudgedTable.objects.exclude(error="").count(),
            "not_judged": ", ".join(
                display_name(g) for g in game_names() if g not in judging.judged_games()
            ),
            "threshold": judging.collusion.THRESHOLD,
            "min_deals": judging.collusion.MIN_DEALS,
        }
        return TemplateResponse(request, "admin/league/collusion.html", context)


def _names(ids: set[Any]) -> dict[Any, str]:
    return dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))


def _results(t: Any) -> dict[str, Any]:
    """A `together.Together` as the page shows it."""

    def side(r: Any) -> dict[str, Any]:
        return {"matches": r.matches, "won": round(r.won, 1), "expected": round(r.expected, 1)}

    return {
        "with": side(t.with_helper),
        "without": side(t.without),
        "difference": round(t.difference, 1),
    }


def game_has_sides(game: str) -> bool:
    """Whether the game's partners change from deal to deal (the page explains what counts)."""
    return bool(get_game(game).engine.SIDES)


def pair_anchor(game: str, helper: Any, helped: Any) -> str:
    """A pair's anchor on the collusion page: one per game (a pair may be listed in two)."""
    return f"pair-{game}-{helper}-{helped}"


def collusion_report() -> list[dict[str, Any]]:
    """Per judged game, its suspect pairs as the page shows them. Four queries per game (the
    decisions, the rated results), one for the names and one for the tables' dates."""
    found = [(game, judging.suspects(game)) for game in judging.judged_games()]
    default = rating_maths.initial_state()
    together = {
        game: judging.results_together(
            game,
            [(s.lean.helper, s.lean.helped) for s in pairs],
            rating_maths.win_chances,
            (default.mu, default.sigma),
        )
        for game, pairs in found
        if pairs
    }
    refs = {t for _, pairs in found for s in pairs for t in s.lean.tables}
    dates = dict(
        JudgedTable.objects.filter(table_ref__in=refs).values_list("table_ref", "finished_at")
    )
    counts = dict(
        JudgedTable.objects.filter(error="")
        .values("game")
        .annotate(n=Count("pk"))
        .values_list("game", "n")
    )
    ids = {p for _, pairs in found for s in pairs for p in s.players}
    ids |= {o for _, pairs in found for s in pairs for _, d in s.lean.strongest() for o in d.others}
    names = _names(ids)
    out = []
    for game, pairs in found:
        rows = []
        for s in pairs:
            lean = s.lean
            rows.append(
                {
                    "helper": names.get(lean.helper, lean.helper),
                    "helped": names.get(lean.helped, lean.helped),
                    "helper_id": lean.helper,
                    "helped_id": lean.helped,
                    "score": round(s.score, 1),
                    "anchor": pair_anchor(game, lean.helper, lean.helped),
                    "toward": lean.toward,
                    "away": lean.away,
                    "cost": round(lean.cost, 1),
                    "gained": round(lean.gained, 1),
                    "back": round(s.back.score, 1) if s.back is not None else None,
                    "tables": [
                        {"ref": t, "at": dates.get(t)}
                        for t in sorted(
                            lean.tables, key=lambda t: (dates.get(t) is None, dates.get(t), t)
                        )
                    ],
                    "results": _results(together[game][lean.helper, lean.helped]),
                    "shown": min(collusion.EXAMPLES, len(lean.examples)),
                    "favouring": len(lean.examples),
                    "decisions": [
                        {
                            "table": d.table,
                            "at": dates.get(d.table),
                            "deal": d.deal + 1,
                            "deal0": d.deal,
                            "step": d.index,  # the replay before the decision
                            "action": d.index + 1,
                            "cost": round(d.cost, 2),
                            "lean": round(x, 2),
                            "gains": [
                                (names.get(o, "-") if o is not None else _("bot"), round(g, 2))
                                for o, g in zip(d.others, d.gains, strict=True)
                            ],
                        }
                        for x, d in lean.strongest()
                    ],
                }
            )
        out.append(
            {
                "game": display_name(game),
                "pairs": rows,
                "judged": counts.get(game, 0),
                "sides": game_has_sides(game),
            }
        )
    return out
