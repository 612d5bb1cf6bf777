"""The old `/login/` and `/logout/` addresses, kept for links, bookmarks and scripts; and
`POST /accounts/guest/`, "Play as a guest" from anywhere (accounts/guests.py).

A GET goes on to allauth's page (keeping `?next=`); a POST is handled right here by allauth's
view, so an old form (or a script) posting `username` and `password` still logs in, under the
same lockout (axes sees allauth's `authenticate(request, ...)`).
"""

from __future__ import annotations

from allauth.account.views import LoginView, LogoutView
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts.guests import GuestRefused, start_guest_session

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


@require_POST
def play_as_guest(request: HttpRequest) -> HttpResponse:
    """Log the visitor in as a new guest and go on to `next` (one of our pages, else home): the
    one-click way in that any page may offer (a seek, a challenge's link). Too many guests from
    one address: 429, saying why."""
    wanted = request.POST.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        wanted = reverse("home")
    try:
        start_guest_session(request)
    except GuestRefused as refused:
        return HttpResponse(refused.detail, status=refused.status, content_type="text/plain")
    return HttpResponseRedirect(wanted)
