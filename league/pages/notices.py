"""The notices pages: the list behind the header's bell, marking read, and
the e-mail's unsubscribe link (no log-in: the link's signed token is the authority)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from league.errors import LeagueError
from league.models import Notice
from league.services import notifications
from league.services.notice_kinds import KINDS, made_at, player_names, reader_zones, words

# Notices the page lists, newest first (older ones stay, unread ones count in the bell).
PAGE_SIZE = 100


@login_required
@require_http_methods(["GET", "HEAD"])
def notice_list(request: HttpRequest) -> HttpResponse:
    notices = list(Notice.objects.filter(user=request.user)[:PAGE_SIZE])
    language = getattr(request.user, "language", None)
    names = player_names([notice.context for notice in notices])
    zone = reader_zones({request.user.pk}).get(request.user.pk)
    rows = []
    for notice in notices:
        title, text = words(notice.kind, notice.context, language, names, zone)
        when = made_at(notice, language, zone)
        rows.append({"notice": notice, "title": title, "text": text, "when": when})
    return render(request, "league/notices.html", {"rows": rows})


@login_required
@require_http_methods(["GET", "HEAD"])
def notice_open(request: HttpRequest, notice_id: int) -> HttpResponse:
    """Follow a notice's link, marking it read (only one's own notices)."""
    notice = get_object_or_404(Notice, pk=notice_id, user=request.user)
    notifications.mark_read(request.user, notice.pk)
    url = notice.url
    if url and url_has_allowed_host_and_scheme(url, allowed_hosts=None):
        return redirect(url)
    return redirect("league:notices")


@require_POST
@login_required
def notice_read(request: HttpRequest, notice_id: int) -> HttpResponse:
    if not notifications.mark_read(request.user, notice_id):
        return HttpResponse(_("No such notice."), status=404)
    return redirect("league:notices")


@require_POST
@login_required
def notice_read_all(request: HttpRequest) -> HttpResponse:
    count = notifications.mark_all_read(request.user)
    messages.success(request, _("%(count)s notices marked read.") % {"count": count})
    return redirect("league:notices")


@never_cache
@csrf_exempt  # RFC 8058: a mail client posts `List-Unsubscribe=One-Click` without a session
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request: HttpRequest) -> HttpResponse:
    """GET: what the link stops, with one button; POST (the button, or the mail client's
    one-click request): stop it. No log-in: the token is signed for one account and kind."""
    token = request.POST.get("token") or request.GET.get("token") or ""
    try:
        _user, kind = notifications.read_unsubscribe_token(token)
    except LeagueError as exc:
        return render(request, "league/unsubscribe.html", {"error": str(exc)}, status=400)
    label = KINDS[kind].label if kind in KINDS else None
    context = {"token": token, "label": label, "done": False}
    if request.method == "POST":
        notifications.unsubscribe(token)
        context["done"] = True
    return render(request, "league/unsubscribe.html", context)
