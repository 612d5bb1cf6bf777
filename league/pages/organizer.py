"""Organizer pages. Each view authorizes first (only the event's organizers and staff pass; creating
an event needs the organizer role), and the services authorize again whoever calls them.

Every irreversible button (publish, close, withdraw, remove, discard, delete) leads to a
confirmation page first: its GET explains what will happen and holds the POST that does it
(`confirm_page`); the POST itself is what the page's form (and a script) sends."""

from __future__ import annotations

from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_http_methods, require_POST

from accounts.collation import sorted_by_name
from games import catalogue
from league.errors import LeagueError
from league.forms.events import DealSetForm, EntryForm, EventForm
from league.models import Bye, Entry, Event, Round, Seat, Section
from league.services import actions, claim_mail
from league.services import claims as claim_services
from league.services import events as event_services
from league.services import rounds as round_services
from league.services import sections as section_services
from league.services.permissions import can_manage, check_can_organize

GET_OR_POST = ["GET", "HEAD", "POST"]


def organizer_view(view: Any) -> Any:
    """Load the event by slug and refuse (403) anyone who may not manage it."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        event = get_object_or_404(Event, slug=slug)
        if not can_manage(request.user, event):
            raise PermissionDenied(_("only this event's organizers may do that"))
        return view(request, event, *args, **kwargs)

    return wrapper


def confirm_page(
    request: HttpRequest,
    event: Event,
    *,
    title: str,
    lines: list[str],
    action: str,
    button: str,
    fields: dict[str, Any] | None = None,
    cancel: str | None = None,
) -> HttpResponse:
    """The confirmation step of an irreversible button: what will happen, and the POST (with
    `fields` as hidden inputs) that does it; nothing is changed by showing it."""
    context = {
        "event": event,
        "title": title,
        "lines": lines,
        "action": action,
        "button": button,
        "fields": sorted((fields or {}).items()),
        "cancel": cancel or event.get_absolute_url(),
    }
    return render(request, "league/confirm.html", context)


def _not_now(
    request: HttpRequest, event: Event, action: str, target: Any = None, to: str | None = None
) -> HttpResponse | None:
    """A confirmation page of an action its rule refuses now (league.services.actions): back,
    with the reason, instead of a page whose button the service would refuse. None if allowed."""
    allowed = actions.may(request.user, event, action, target)
    if allowed:
        return None
    messages.error(request, allowed.reason)
    return redirect(to or event.get_absolute_url())


def _done(request: HttpRequest, event: Event, text: str, to: str | None = None) -> HttpResponse:
    messages.success(request, text)
    return redirect(to or event.get_absolute_url())


def _refused(request: HttpRequest, event: Event, exc: Exception, to: str | None = None) -> Any:
    messages.error(request, str(exc))
    return redirect(to or event.get_absolute_url())


@login_required
def event_create(request: HttpRequest) -> HttpResponse:
    check_can_organize(
        request.user, _("creating an event needs the organizer role (staff grant it)")
    )
    game = request.GET.get("game") or request.POST.get("game")
    if game not in dict(catalogue.game_choices()):
        return render(request, "league/event_pick_game.html", {"games": catalogue.games()})
    form = EventForm(request.POST or None, game=game)
    if request.method == "POST" and form.is_valid():
        try:
            event = event_services.create_event(request.user, **form.service_fields())
        except LeagueError as exc:
            form.add_error(None, str(exc))
        else:
            return _done(request, event, "Event created (a draft until you publish it).")
    return render(request, "league/event_form.html", {"form": form, "game": catalogue.game(game)})


@organizer_view
def event_edit(request: HttpRequest, event: Event) -> HttpResponse:
    """The settings form: only what can still change is open (a closed event's is read-only);
    `update_event` refuses the rest whoever posts it."""
    read_only = not actions.may(request.user, event, "edit")
    form = EventForm(request.POST or None, instance=event, game=event.game, read_only=read_only)
    if request.method == "POST" and form.is_valid():
        fields = form.service_fields()
        fields.pop("game")
        try:
            event_services.update_event(Event.objects.get(pk=event.pk), by=request.user, **fields)
        except LeagueError as exc:
            form.add_error(None, str(exc))
        else:
            return _done(request, event, "Event saved.")
    context = {"form": form, "game": catalogue.game(event.game), "event": event}
    return render(request, "league/event_form.html", context)


@require_http_methods(GET_OR_POST)
@organizer_view
def event_publish(request: HttpRequest, event: Event) -> HttpResponse:
    if request.method != "POST":
        if refused := _not_now(request, event, "publish_event"):
            return refused
        return confirm_page(
            request,
            event,
            title=_("Publish %(name)s?") % {"name": event.name},
            lines=[
                _("Everyone will see the event, its published rounds, results and standings."),
                _(
                    "Its results count for the ratings if its owner holds the organizer role. "
                    "A published event cannot become a draft again, nor be deleted."
                ),
            ],
            action=reverse("league:event_publish", args=[event.slug]),
            button=_("Publish the event"),
        )
    event_services.publish_event(event, by=request.user)
    return _done(request, event, "Event published.")


@require_http_methods(GET_OR_POST)
@organizer_view
def event_close(request: HttpRequest, event: Event) -> HttpResponse:
    if request.method != "POST":
        if refused := _not_now(request, event, "close"):
            return refused
        return confirm_page(
            request,
            event,
            title=_("Close %(name)s?") % {"name": event.name},
            lines=[
                _(
                    "No more rounds, entries or results — corrections included. "
                    "This cannot be undone."
                )
            ],
            action=reverse("league:event_close", args=[event.slug]),
            button=_("Close the event"),
        )
    try:
        event_services.close_event(event, by=request.user)
    except LeagueError as exc:
        return _refused(request, event, exc)
    return _done(request, event, "Event closed: no more rounds or results.")


def entry_name(entry: Entry) -> str:
    """What lists of entries are sorted by (accounts.collation: the reader's alphabet)."""
    return entry.player.name


@organizer_view
def entries(request: HttpRequest, event: Event) -> HttpResponse:
    form = EntryForm(request.POST or None)
    here = reverse("league:entries", args=[event.slug])
    if request.method == "POST" and form.is_valid():
        try:
            entry = event_services.enter_player(
                event,
                by=request.user,
                name=form.cleaned_data["player"],
                checked_in=form.cleaned_data["checked_in"],
            )
        except LeagueError as exc:
            return _refused(request, event, exc, here)
        return _done(request, event, f"{entry.player.name} entered.", here)
    in_a_round = Seat.objects.filter(fixture__round__event=event, player_id=OuterRef("player_id"))
    bye = Bye.objects.filter(round__event=event, player_id=OuterRef("player_id"))
    rows = (
        Entry.objects.filter(event=event)
        .select_related("player")
        .annotate(played=ExpressionWrapper(Exists(in_a_round) | Exists(bye), BooleanField()))
        .annotate(may_invite=claim_services.can_invite_expression(request.user))
    )
    rows = sorted_by_name(rows, entry_name, get_language())  # "Łukasz" beside "Lukas"
    context = {
        "event": event,
        "form": form,
        "entries": [e for e in rows if not e.withdrawn],
        "withdrawn": [e for e in rows if e.withdrawn],
        "claim_days": claim_services.invitation_days(),
    }
    return render(request, "league/entries.html", context)


# What each entry action says on its confirmation page (the irreversible ones).
CONFIRM_ENTRY = {
    "withdraw": (
        _lazy("Withdraw %(name)s?"),
        _lazy(
            "Later rounds skip them; their results stay. You can undo it later (a knockout "
            "takes nobody back once a later round is planned). Their place goes to the first "
            "player on the waiting list."
        ),
        _lazy("Withdraw"),
    ),
    "remove": (
        _lazy("Remove %(name)s's entry?"),
        _lazy(
            "The entry goes, as if it had never been made (the player stays). Only an entry "
            "that has never been in a round can be removed. This cannot be undone."
        ),
        _lazy("Remove the entry"),
    ),
}


CONFIRM_ENTRY_RULE = {"withdraw": "withdraw", "remove": "remove_entry"}


@require_http_methods(GET_OR_POST)
@organizer_view
def entry_action(request: HttpRequest, event: Event, entry_id: int) -> HttpResponse:
    entry = get_object_or_404(
        Entry.objects.select_related("player", "event"), pk=entry_id, event=event
    )
    here = reverse("league:entries", args=[event.slug])
    if request.method != "POST":
        action = request.GET.get("action", "")
        if action not in CONFIRM_ENTRY:
            return redirect(here)
        if refused := _not_now(request, event, CONFIRM_ENTRY_RULE[action], entry, here):
            return refused
        title, text, button = CONFIRM_ENTRY[action]
        return confirm_page(
            request,
            event,
            title=str(title) % {"name": entry.player.name},
            lines=[str(text)],
            action=reverse("league:entry_action", args=[event.slug, entry.pk]),
            button=str(button),
            fields={"action": action},
            cancel=here,
        )
    action = request.POST.get("action")
    try:
        if action == "check_in":
            event_services.check_in(entry, True, by=request.user)
        elif action == "check_out":
            event_services.check_in(entry, False, by=request.user)
        elif action == "withdraw":
            event_services.withdraw(entry, by=request.user)
        elif action == "reinstate":
            event_services.reinstate(entry, by=request.user)
        elif action == "remove":
            event_services.remove_entry(entry, by=request.user)
        else:
            raise LeagueError(f"unknown action {action!r}")
    except LeagueError as exc:
        return _refused(request, event, exc, here)
    return _done(request, event, f"{entry.player.name}: done.", here)


@require_POST
@organizer_view
def claim_invite(request: HttpRequest, event: Event, entry_id: int) -> HttpResponse:
    """Invite a person to claim this entry's player (who has no account): by e-mail, once, to
    the address the import gave (`how=mail`, league.services.claim_mail); else a one-time link
    shown once, on this page only, for the organizer to pass on (league.services.claims)."""
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, event=event)
    here = reverse("league:entries", args=[event.slug])
    # An organizer of this event may still not vouch for this player (claims.can_invite): the
    # refusal says why on the entries page.
    if request.POST.get("how") == "mail":
        try:
            address = claim_mail.mail_claim_invitation(
                entry, by=request.user, claim_url=request.build_absolute_uri(reverse("claim"))
            )
        except (LeagueError, PermissionDenied) as exc:
            return _refused(request, event, exc, here)
        text = _("Invitation to claim %(name)s e-mailed to %(address)s.")
        return _done(request, event, text % {"name": entry.player.name, "address": address}, here)
    try:
        made = claim_services.invite_to_claim(entry.player, by=request.user)
    except (LeagueError, PermissionDenied) as exc:
        return _refused(request, event, exc, here)
    link = request.build_absolute_uri(f"{reverse('claim')}?{urlencode({'token': made.token})}")
    context = {
        "event": event,
        "player": entry.player,
        "link": link,
        "expires_at": made.invitation.expires_at,
    }
    response = render(request, "league/claim_invite.html", context)
    response["Cache-Control"] = "no-store"  # the link is a secret: no cache keeps a copy
    return response


@require_POST
@organizer_view
def round_generate(request: HttpRequest, event: Event) -> HttpResponse:
    try:
        round_ = round_services.generate_round(event, by=request.user)
    except LeagueError as exc:
        return _refused(request, event, exc)
    url = reverse("league:round", args=[event.slug, round_.number])
    return _done(request, event, f"Round {round_.number} planned: check it, then publish.", url)


def confirm_round(request: HttpRequest, event: Event, round_: Round, action: str) -> HttpResponse:
    """The confirmation of publishing a round (and, in a draft event, the event) or
    discarding a draft."""
    here = reverse("league:round", args=[event.slug, round_.number])
    names = {"number": round_.number, "event": event.name}
    fields: dict[str, Any] = {"action": action}
    if action == "discard":
        title = _("Discard the draft of round %(number)s?") % names
        lines = [_("Its tables and byes go; you can generate the round again.")]
        button = _("Discard the draft")
    else:
        title = _("Publish round %(number)s?") % names
        lines = [
            _(
                "Its players see their tables and seats; online tables open. A published "
                "round cannot be taken back."
            )
        ]
        button = _("Publish the round")
        if event.visibility == Event.Visibility.DRAFT:
            title = _("Publish round %(number)s and %(event)s?") % names
            lines.append(
                _(
                    "%(event)s is a draft: publishing the round publishes the event too, or its "
                    "players would find no event and no table (a 404)."
                )
                % names
            )
            button = _("Publish the round and the event")
            fields["publish_event"] = "1"
    return confirm_page(
        request,
        event,
        title=title,
        lines=lines,
        action=reverse("league:round_action", args=[event.slug, round_.number]),
        button=button,
        fields=fields,
        cancel=here,
    )


@require_http_methods(GET_OR_POST)
@organizer_view
def round_action(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, event=event, number=number)
    here = reverse("league:round", args=[event.slug, number])
    if request.method != "POST":
        action = request.GET.get("action", "")
        if action not in ("publish", "discard"):
            return redirect(here)
        rule = "publish_round" if action == "publish" else "discard"
        if refused := _not_now(request, event, rule, round_, here):
            return refused
        return confirm_round(request, event, round_, action)
    action = request.POST.get("action")
    try:
        if action == "publish":
            round_services.publish_round(
                round_, by=request.user, publish_event=request.POST.get("publish_event") == "1"
            )
            return _done(request, event, f"Round {number} published.", here)
        if action == "swap":  # two selects of the round's players by name; ids posted
            try:
                first, second = int(request.POST["first"]), int(request.POST["second"])
            except (KeyError, ValueError):
                raise LeagueError(_("choose the two players to swap")) from None
            round_services.swap_players(
                round_, first, second, by=request.user, seen=request.POST.get("draft") or None
            )
            return _done(request, event, "Players swapped.", here)
        if action == "discard":
            round_services.discard_draft(round_, by=request.user)
            return _done(request, event, f"Draft round {number} discarded.")
        raise LeagueError(f"unknown action {action!r}")
    except round_services.DraftEventRound as exc:
        messages.warning(request, str(exc))
        return confirm_round(request, event, round_, "publish")
    except LeagueError as exc:
        return _refused(request, event, exc, here)


# --- duplicate events: a draft round's sections and their deal sets ---------------------------


def section_groups(post: Any, table_numbers: list[int]) -> list[list[int]]:
    """The round page's section form (`table_<n>`: the section number chosen for table n) as
    the service's groups of table numbers, by section number; a table left out is refused by
    the service (it names it)."""
    chosen: dict[int, list[int]] = {}
    for number in table_numbers:
        try:
            section = int(post.get(f"table_{number}", ""))
        except ValueError:
            continue
        chosen.setdefault(section, []).append(number)
    return [chosen[k] for k in sorted(chosen)]


@require_POST
@organizer_view
def round_sections(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """Split a duplicate draft round's tables into sections (the round page's form)."""
    round_ = get_object_or_404(Round, event=event, number=number)
    here = reverse("league:round", args=[event.slug, number])
    tables = list(round_.fixtures.order_by("number").values_list("number", flat=True))
    try:
        made = section_services.split_sections(
            round_, section_groups(request.POST, tables), by=request.user
        )
    except LeagueError as exc:
        return _refused(request, event, exc, here)
    text = _("Sections set: %(n)s.") % {"n": len(made)}
    return _done(request, event, text, here)


@require_http_methods(GET_OR_POST)
@organizer_view
def section_deals(request: HttpRequest, event: Event, number: int, section: int) -> HttpResponse:
    """Upload a deal set for one section of a duplicate draft round (or take it back): its
    tables then play those deals instead of deals from a secret seed. The cards are never
    shown here (the printable hand records show them, to whoever may see them)."""
    round_ = get_object_or_404(Round, event=event, number=number)
    section_row = get_object_or_404(Section, round=round_, number=section)
    here = reverse("league:section_deals", args=[event.slug, number, section])
    round_page = reverse("league:round", args=[event.slug, number])
    allowed = actions.may(request.user, event, "sections", round_)
    form = DealSetForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        try:
            if request.POST.get("action") == "clear":
                section_services.clear_deals(section_row, by=request.user)
                return _done(request, event, _("Deal set taken back."), here)
            if form.is_valid():
                section_services.upload_deals(
                    section_row, form.cleaned_data["deals"], by=request.user
                )
                text = _("Deal set of section %(n)s saved.") % {"n": section}
                return _done(request, event, text, round_page)
        except LeagueError as exc:
            form.add_error(None, str(exc))
    context = {
        "event": event,
        "round": round_,
        "section": section_row,
        "tables": list(section_row.fixtures.order_by("number").values_list("number", flat=True)),
        "form": form,
        "allowed": allowed,
        "n_deals": event.deals_per_match,
        "game": catalogue.game(event.game),
    }
    return render(request, "league/section_deals.html", context)
