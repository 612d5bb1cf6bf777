"""Admin pages for tables: read-only, because every change must go through the services.

They never show what could give a deal away: not the seed (tables dealt from one seed share
their deals), nor the engine state or the record of an unfinished table (every hand, and the
salts the record reveals), nor an unfinished table's actions (discards, gifts and face-down
commits are private), nor a seat's token (it lets anyone act for the seat). A list filter in the
URL (`?seed__startswith=1`, `?token__startswith=a`) would be an oracle for the same secrets, so
those lookups are refused. An embargoed (duplicate) table counts as unfinished until it is
released: other tables of its section are still playing its cards. Its explicit `deals` are
never shown (their salts are secret).
"""

from typing import Any

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from gameplay.models import Action, Seat, Table

FINISHED = Table.Status.FINISHED


def _shown_finished(table: Table) -> bool:
    """Whether the admin may show the table's record and actions: finished and released."""
    return table.status == FINISHED and not table.embargoed


# A seat as the admin shows it: who sits there and, for a bot, its level; never the token.
SEAT_FIELDS = ("number", "name", "user", "bot", "bot_level")


class SeatInline(admin.TabularInline):
    model = Seat
    fields = SEAT_FIELDS
    readonly_fields = fields
    extra = 0
    can_delete = False


def _refused_lookup(lookup: str, secret: set[str]) -> bool:
    return lookup.split("__", 1)[0] in secret


class ReadOnlyAdmin(admin.ModelAdmin):
    # Deleting is a change too (and its confirmation page lists the rows it would delete).
    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ("id", "game", "status", "seq", "n_deals", "seconds_per_move", "created_at")
    list_filter = ("game", "status", "rated")
    search_fields = ("id",)
    inlines = [SeatInline]
    # Everything but `seed` and `state`; `record` once the table is finished.
    shown = (
        "id",
        "game",
        "variant",
        "n_deals",
        "dealer",
        "status",
        "seq",
        "seconds_per_move",
        "on_timeout",
        "deadline",
        "bot_due",
        "allow_spectators",
        "embargoed",
        "rated",
        "result",
        "forfeited_seats",
        "created_at",
        "updated_at",
        "finished_at",
    )

    def get_fields(self, request, obj: Table | None = None) -> tuple[str, ...]:
        if obj is not None and _shown_finished(obj):
            return (*self.shown, "record")
        if obj is not None and obj.embargoed:  # its result too waits for the section
            return tuple(f for f in self.shown if f != "result")
        return self.shown

    def lookup_allowed(self, lookup: str, value: Any, request: Any = None) -> bool:
        if _refused_lookup(lookup, {"seed", "state", "record", "deals"}):
            return False
        return super().lookup_allowed(lookup, value, request)


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    """Every seat, to find the tables a bot level plays at (`?bot_level=basic`)."""

    list_display = ("table", *SEAT_FIELDS)
    list_filter = ("bot_level",)
    search_fields = ("table__id", "name")
    list_select_related = ("table", "user")
    fields = ("table", *SEAT_FIELDS)
    readonly_fields = fields

    def lookup_allowed(self, lookup: str, value: Any, request: Any = None) -> bool:
        if _refused_lookup(lookup, {"token"}):
            return False
        return super().lookup_allowed(lookup, value, request)


@admin.register(Action)
class ActionAdmin(ReadOnlyAdmin):
    list_display = ("table", "seq", "seat", "kind", "shown_action", "created_at")
    list_filter = ("kind",)
    search_fields = ("table__id",)
    list_select_related = ("table",)

    @admin.display(description=_("action"))
    def shown_action(self, obj: Action) -> Any:
        if not _shown_finished(obj.table):
            return _("hidden until the table is finished")
        return obj.action

    def has_view_permission(self, request, obj: Action | None = None) -> bool:
        # One action's page (its title is the action itself) only once its table is finished.
        if obj is not None and not _shown_finished(obj.table):
            return False
        return super().has_view_permission(request, obj)

    def lookup_allowed(self, lookup: str, value: Any, request: Any = None) -> bool:
        # `table__seed` and the like are refused by Django already (not in list_filter)
        if _refused_lookup(lookup, {"action"}):
            return False
        return super().lookup_allowed(lookup, value, request)
