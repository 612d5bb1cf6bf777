"""Admin pages for tables: read-only, because every change must go through the services."""

from django.contrib import admin

from gameplay.models import Action, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("number", "name", "user", "bot")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "status", "seq", "n_deals", "seconds_per_move", "created_at")
    list_filter = ("game", "status", "rated")
    search_fields = ("id",)
    inlines = [SeatInline]
    exclude = ("state",)

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    list_display = ("table", "seq", "seat", "kind", "action", "created_at")
    list_filter = ("kind",)
    search_fields = ("table__id",)

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_add_permission(self, request) -> bool:
        return False
