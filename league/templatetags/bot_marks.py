"""`{{ player|bot_mark }}`: the bot mark wherever a player is shown (docs/accounts.md).

A program plays the player — a built-in bot or a bot account — when `Player.is_bot` is set; the
mark's title says which. A standings row (a dict with `is_bot`) gets the plain mark.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

import gameplay.api as gameplay

register = template.Library()


@register.filter
def bot_mark(player: Any) -> SafeString | str:
    """The mark with a title ("built-in bot", "bot account"), or nothing for a person."""
    if isinstance(player, dict):
        is_bot, builtin = bool(player.get("is_bot")), None
    else:
        is_bot = bool(getattr(player, "is_bot", False))
        builtin = getattr(player, "is_builtin_bot", None)
    if not is_bot:
        return ""
    title = _("bot") if builtin is None else _("built-in bot") if builtin else _("bot account")
    return format_html(' <span class="bot-mark" title="{}">🤖</span>', title)


@register.filter
def bot_level(level: str) -> str:
    """A built-in bot's level as a person reads it, translated ("Strong"), not its key."""
    return gameplay.bot_level_label(level) if level else ""
