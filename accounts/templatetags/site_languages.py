"""`{% site_languages as languages %}`: the header switcher's choices, (code, name) each in its own
language as settings.LANGUAGES spells them (Django's get_available_languages would translate
"English" into the reader's language)."""

from __future__ import annotations

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def site_languages() -> list[tuple[str, str]]:
    return [(code, str(name)) for code, name in settings.LANGUAGES]
