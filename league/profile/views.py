"""`/accounts/profile/`: the account's player, its language, bot mark and personal API token;
and the rest of an account's life: deleting it, claiming a player, reporting one.

The pages show or carry secrets (the API token, a claim invitation's token), so no cache keeps
them (`never_cache`: no-store).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from accounts.guests import is_guest
from gameplay import api as gameplay
from gameplay.api import vacation_status
from games import catalogue
from league.errors import LeagueError
from league.forms.schedule import NoticeSettingsForm
from league.models import Player, PushSubscription
from league.profile import deletion, services
from league.profile.forms import ClaimForm, DeleteAccountForm, ProfileForm, ReportForm
from league.services import claims, notice_prefs, reports, web_push
from league.services.notice_prefs import settings_of
from league.services.players import player_for_user


def _guest_signs_up(request: HttpRequest) -> HttpResponse:
    """A guest has no profile or token yet: the sign-up page, which keeps their games."""
    messages.info(request, _("Sign up to keep your games and get a profile."))
    return redirect("account_signup")


def _initial(user: Any, player: Player) -> dict[str, Any]:
    return {
        "name": player.name,
        "club": player.club,
        "country": player.country,
        "language": user.language,
        "is_bot_account": user.is_bot_account,
    }


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    user = request.user
    if is_guest(user):
        return _guest_signs_up(request)
    player = player_for_user(user)
    bot_mark_fixed = services.has_rated_game(player)
    initial = _initial(user, player)
    if request.method == "POST":
        form = ProfileForm(
            request.POST, initial=initial, player=player, bot_mark_fixed=bot_mark_fixed
        )
        if form.is_valid():
            try:
                services.update_profile(user, **form.cleaned_data)
            except LeagueError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("Your profile is saved."))
                return redirect("profile")
        player.refresh_from_db()  # show the name as stored, not the refused one
    else:
        form = ProfileForm(initial=initial, player=player, bot_mark_fixed=bot_mark_fixed)
    status = 400 if request.method == "POST" else 200
    return render_profile(request, player, form, status=status)


def render_profile(
    request: HttpRequest,
    player: Player,
    form: ProfileForm,
    *,
    notice_form: NoticeSettingsForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The profile page; `notice_form` a refused notice settings form, with its errors."""
    user = request.user
    context = {
        "form": form,
        "player": player,
        "token": services.personal_token(user),
        "notice_form": notice_form or NoticeSettingsForm(initial=settings_of(user)),
        "push_enabled": web_push.enabled(),
        "vapid_public_key": settings.VAPID_PUBLIC_KEY,
        "push_devices": PushSubscription.objects.filter(user_id=user.pk).count(),
        "vacation": vacation_status(user),
    }
    return render(request, "account/profile.html", context, status=status)


def profile_with_notice_errors(
    request: HttpRequest, notice_form: NoticeSettingsForm
) -> HttpResponse:
    """The profile page again, showing why the notice settings were refused (nothing saved)."""
    user = request.user
    player = player_for_user(user)
    initial = _initial(user, player)
    form = ProfileForm(
        initial=initial, player=player, bot_mark_fixed=services.has_rated_game(player)
    )
    return render_profile(request, player, form, notice_form=notice_form, status=400)


@never_cache
@require_http_methods(["GET", "POST"])
@login_required
def notice_settings(request: HttpRequest) -> HttpResponse:
    """The profile page's notice settings: per kind e-mail and push, quiet hours, the digest.
    A bad value shows the page again with the reason, and nothing is saved; a GET (a reload of
    that answer) goes to the settings on the profile page."""
    if request.method == "GET":
        return redirect(f"{reverse('profile')}#notices")
    if is_guest(request.user):
        return _guest_signs_up(request)
    form = NoticeSettingsForm(request.POST)
    if form.is_valid():
        try:
            notice_prefs.save_settings(request.user, by=request.user, **form.choices())
        except LeagueError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Your notice settings are saved."))
            return redirect(reverse("profile") + "#notices")
    return profile_with_notice_errors(request, form)


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def replace_token(request: HttpRequest) -> HttpResponse:
    """A confirmation page; its POST replaces the token (the old key stops working)."""
    if is_guest(request.user):
        return _guest_signs_up(request)
    if request.method == "POST":
        services.replace_token(request.user)
        messages.success(
            request, _("Your API token is replaced. Programs using the old one must use the new.")
        )
        return redirect("profile")
    return render(request, "account/token_confirm.html")


@never_cache
@sensitive_post_parameters("password")
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def delete_account(request: HttpRequest) -> HttpResponse:
    """A confirmation page with the password; its POST deletes the account (league.profile.
    deletion) and logs out."""
    form = DeleteAccountForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                deletion.delete_account(
                    request, request.user, password=form.cleaned_data["password"]
                )
            except LeagueError as error:
                form.add_error(None, str(error))
            else:
                logout(request)
                messages.success(
                    request,
                    _("Your account is deleted. Your results stay under an anonymous name."),
                )
                return redirect("home")
    context = {"form": form, "problems": deletion.deletion_problems(request.user)}
    return render(request, "account/delete_confirm.html", context, status=status)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def claim(request: HttpRequest) -> HttpResponse:
    """An organizer's invitation (`?token=`): shows the player, and its POST (logged in, with
    the token in the body) makes the player the account's (league.services.claims)."""
    token = request.POST.get("token") if request.method == "POST" else request.GET.get("token")
    try:
        invitation = claims.open_invitation(token or "")
        events = claims.invitation_events(invitation)
    except claims.ClaimRefused as refused:
        context = {"error": str(refused)}
        return render(request, "account/claim.html", context, status=refused.status)
    context = {
        "invitation": invitation,
        "player": invitation.player,
        "events": events,
        "form": ClaimForm(),
    }
    if not request.user.is_authenticated:
        # After logging in or signing up, back here (the token is redacted from every log).
        here = f"{reverse('claim')}?{urlencode({'token': token})}"
        context["next"] = urlencode({"next": here})
        return render(request, "account/claim.html", context)
    if request.method != "POST":
        context["form"] = ClaimForm(initial={"token": token})
        return render(request, "account/claim.html", context)
    try:
        player = claims.claim_player(request.user, token or "")
    except LeagueError as error:
        context["form"] = ClaimForm(initial={"token": token})
        context["refused"] = str(error)
        return render(request, "account/claim.html", context, status=400)
    messages.success(
        request, _("%(name)s is yours now, with all their results.") % {"name": player.name}
    )
    return redirect(player.get_absolute_url())


def _tables_together(user: Any, player: Player) -> list[tuple[str, str]]:
    """The report form's choice of a table the reporter played with the player."""
    if not (getattr(user, "is_authenticated", False) and player.user_id):
        return []
    tables = gameplay.finished_tables_together(
        user.pk, player.user_id, limit=reports.TABLES_OFFERED
    )
    return [
        (t["ref"], f"{catalogue.display_name(t['game'])} · {_when(t['finished_at'])}")
        for t in tables
    ]


def _when(at: Any) -> str:
    return date_format(localtime(at), "SHORT_DATETIME_FORMAT")


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def report_player(request: HttpRequest, player_id: int) -> HttpResponse:
    """A form to report a player to staff (league.services.reports)."""
    player = get_object_or_404(Player, pk=player_id)
    form = ReportForm(request.POST or None, tables=_tables_together(request.user, player))
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                reports.report_player(request.user, player, **form.cleaned_data)
            except reports.TooManyReports as error:
                form.add_error(None, str(error))
                status = 429
            except LeagueError as error:
                form.add_error(None, str(error))
            else:
                messages.success(
                    request,
                    _("Thank you: staff will read your report about %(name)s.")
                    % {"name": player.name},
                )
                return redirect(player.get_absolute_url())
    context = {"form": form, "player": player}
    return render(request, "league/report_form.html", context, status=status)
