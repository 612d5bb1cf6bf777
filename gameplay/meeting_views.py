"""The lobby's pages for meeting people: seek (and cancel), challenge, answer a challenge.

Posts only, from the lobby page's blocks (`gameplay/meeting_context.py`, template
`gameplay/lobby/_people.html`) and My games. Thin over `gameplay.services.seeks` and
`.challenges`, which authorize every write; a refusal shows the lobby page again with the
message and its 4xx status, and changed nothing. No link carries a seat token: a matched seek
opens its table page, where the session finds the seat.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext

from gameplay import guest_entry, lobby_views, meeting_context
from gameplay.clock import is_turn_based
from gameplay.meeting_forms import ChallengeForm, SeekForm
from gameplay.models import Seek
from gameplay.post_only import post_form
from gameplay.services import challenges, seeks
from gameplay.services.lobby import LobbyError

PEOPLE = "#people"
CHALLENGES = "#challenges"


def _to_login(next_url: str) -> HttpResponse:
    """Anonymous visitors log in first and come back to the lobby's block."""
    return redirect(f"{reverse('account_login')}?{urlencode({'next': next_url})}")


def _play(anchor: str = "") -> str:
    return reverse("gameplay:play") + anchor


def _back(request: HttpRequest, default: str) -> str:
    """The form's `next` if it is ours (My games answers there too), else `default`."""
    wanted = request.POST.get("next") or ""
    if wanted and url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return default


def _refused(request: HttpRequest, status: int, **forms: object) -> HttpResponse:
    people = meeting_context.people_context(request.user, **forms)  # type: ignore[arg-type]
    return lobby_views.render_play(request, status=status, people=people)


@post_form("gameplay:play")
def seek(request: HttpRequest) -> HttpResponse:
    """Seek a table with people; a match found at once opens the table. A visitor not logged in
    chooses first: as a guest (whose seek is casual), or log in, or sign up."""
    if guest_entry.wants_guest(request):
        refused = guest_entry.become_guest(request)
        if refused is not None:
            return refused
    if not request.user.is_authenticated:
        return guest_entry.offer(
            request,
            action=reverse("gameplay:seek"),
            back=_play(PEOPLE),
            what=gettext("Play with people now"),
        )
    form = SeekForm(request.POST)
    if not form.is_valid():
        return _refused(request, 400, seek_form=form)
    try:
        made = seeks.seek(request.user, **form.service_kwargs())
    except LobbyError as exc:
        form.add_error(None, exc.detail)
        return _refused(request, exc.status, seek_form=form)
    if made.table_id:
        return redirect(reverse("gameplay:table", args=[made.table_id]))
    return redirect(_play(PEOPLE))


@post_form("gameplay:play")
def cancel_seek(request: HttpRequest, seek_id: str) -> HttpResponse:
    """Withdraw your seek; if it met its table meanwhile, go there."""
    if not request.user.is_authenticated:
        return _to_login(_play(PEOPLE))
    try:
        seeks.cancel(request.user, seek_id)
    except LobbyError as exc:
        found = Seek.objects.filter(pk=seek_id, user=request.user).first()
        if found is not None and found.table_id:
            return redirect(reverse("gameplay:table", args=[found.table_id]))
        messages.error(request, exc.detail)
        return _refused(request, exc.status)
    messages.success(request, gettext("You stopped seeking."))
    return redirect(_play(PEOPLE))


@post_form("gameplay:play")
def challenge(request: HttpRequest) -> HttpResponse:
    """Challenge a player by name; they are told at once."""
    if not request.user.is_authenticated:
        return _to_login(_play(CHALLENGES))
    form = ChallengeForm(request.POST)
    if not form.is_valid():
        return _refused(request, 400, challenge_form=form)
    try:
        made = challenges.challenge(request.user, **form.service_kwargs())
    except LobbyError as exc:
        form.add_error("player" if exc.status == 404 else None, exc.detail)
        return _refused(request, exc.status, challenge_form=form)
    if is_turn_based(made.seconds_per_move):
        # By the day, nobody waits on the page: the table is in My games once it is accepted.
        text = gettext(
            "%(name)s is asked and told by a notice; once they accept, the table is in My games."
        )
    else:
        text = gettext("%(name)s is asked; you will be taken to the table when they accept.")
    messages.success(request, text % {"name": made.challenged.get_username()})
    return redirect(_play(CHALLENGES))


ANSWERS = {
    "accept": challenges.accept,
    "decline": challenges.decline,
    "withdraw": challenges.withdraw,
}


@post_form("gameplay:play")
def answer(request: HttpRequest, challenge_id: str, action: str) -> HttpResponse:
    """Accept (the table opens), decline or withdraw a challenge."""
    if not request.user.is_authenticated:
        return _to_login(_play(CHALLENGES))
    if action not in ANSWERS:
        raise Http404
    try:
        done = ANSWERS[action](request.user, challenge_id)
    except LobbyError as exc:
        messages.error(request, exc.detail)
        return _refused(request, exc.status)
    if action == "accept" and done.table_id:
        return redirect(reverse("gameplay:table", args=[done.table_id]))
    if action == "decline":
        messages.info(request, gettext("You declined the challenge."))
    return redirect(_back(request, _play(CHALLENGES)))
