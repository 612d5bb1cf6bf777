"""The old `/login/` and `/logout/` addresses, kept for links, bookmarks and scripts.

A GET goes on to allauth's page (keeping `?next=`); a POST is handled right here by allauth's
view, so an old form (or a script) posting `username` and `password` still logs in, under the
same lockout (axes sees allauth's `authenticate(request, ...)`).
"""

from __future__ import annotations

from allauth.account.views import LoginView, LogoutView
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse

_login = LoginView.as_view()
_logout = LogoutView.as_view()


def _onwards(request: HttpRequest, name: str) -> HttpResponse:
    query = request.META.get("QUERY_STRING", "")
    return HttpResponseRedirect(reverse(name) + (f"?{query}" if query else ""))


def legacy_login(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _onwards(request, "account_login")
    if "login" not in request.POST and "username" in request.POST:
        data = request.POST.copy()
        data["login"] = data["username"]  # allauth's form calls the user name `login`
        request.POST = data
    return _login(request)


def legacy_logout(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _onwards(request, "account_logout")
    return _logout(request)
