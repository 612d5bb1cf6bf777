"""The language a page is shown in (docs/translations.md, "How the language is chosen").

A logged-in player's profile language (`User.language`) first; else the switcher's cookie or the
browser's Accept-Language (Django's LocaleMiddleware); else English. The switcher in the header
posts here: it sets the cookie for anyone and, for a logged-in player, also the profile language,
so the choice follows the account to other browsers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language


def offered(language: str | None) -> bool:
    """Is `language` one of the site's languages (settings.LANGUAGES)?"""
    return bool(language) and language in dict(settings.LANGUAGES)


class ProfileLanguageMiddleware:
    """After AuthenticationMiddleware: a logged-in player reads the site in their profile's
    language, whatever the browser asks for (LocaleMiddleware chose for everyone else)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = getattr(user, "language", "")
            if offered(language) and language != translation.get_language():
                translation.activate(language)
                request.LANGUAGE_CODE = language
        return self.get_response(request)


def set_preferred_language(user: Any, language: str) -> None:
    """Save `language` as the account's own profile language (only the account itself, logged
    in, changes it: the caller passes request.user); a language not offered changes nothing."""
    if not getattr(user, "is_authenticated", False):
        raise PermissionError("only a logged-in account has a profile language")
    if language not in get_user_model().Language.values:
        raise ValueError(f"not a language of the site: {language!r}")
    if user.language != language:
        get_user_model().objects.filter(pk=user.pk).update(language=language)
        user.language = language


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The header's switcher (a plain form, no JavaScript): remembers the language in a cookie
    and, for a logged-in player, in the profile; then back to the page (`next`)."""
    language = request.POST.get("language", "")
    if not offered(language):
        return HttpResponseBadRequest(_("Choose one of the languages offered."))
    if request.user.is_authenticated:
        set_preferred_language(request.user, language)
    # Django's own view: the cookie, and a redirect to `next` only when it is a page of ours.
    return django_set_language(request)
