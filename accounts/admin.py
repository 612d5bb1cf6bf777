from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from rest_framework.authtoken.models import TokenProxy

from accounts.models import User


@admin.register(User)
class MedianaUserAdmin(UserAdmin):
    """Django's user admin, with staff's site-wide chat mute (docs/chat.md) in the list."""

    list_display = [*UserAdmin.list_display, "chat_muted"]
    list_filter = [*UserAdmin.list_filter, "chat_muted"]
    fieldsets = [*(UserAdmin.fieldsets or ()), (_("Table chat"), {"fields": ["chat_muted"]})]
    actions = ["mute_in_chat", "unmute_in_chat"]

    @admin.action(description=_("Mute the selected accounts in every table's chat"))
    def mute_in_chat(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        queryset.update(chat_muted=True)

    @admin.action(description=_("Let the selected accounts chat again"))
    def unmute_in_chat(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        queryset.update(chat_muted=False)


# API tokens are their owner's secret: staff see none (an owner replaces theirs on the profile).
admin.site.unregister(TokenProxy)
