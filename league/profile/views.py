"""`/accounts/profile/`: the account's player, its language, bot mark and personal API token.

The pages show a secret (the token), so no cache keeps them (`never_cache`: no-store).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from league.errors import LeagueError
from league.profile import services
from league.profile.forms import ProfileForm
from league.services.players import player_for_user


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    user = request.user
    player = player_for_user(user)
    bot_mark_fixed = services.has_rated_game(player)
    initial = {
        "name": player.name,
        "club": player.club,
        "country": player.country,
        "language": user.language,
        "is_bot_account": user.is_bot_account,
    }
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
    context = {
        "form": form,
        "player": player,
        "token": services.personal_token(user),
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "account/profile.html", context, status=status)


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def replace_token(request: HttpRequest) -> HttpResponse:
    """A confirmation page; its POST replaces the token (the old key stops working)."""
    if request.method == "POST":
        services.replace_token(request.user)
        messages.success(
            request, _("Your API token is replaced. Programs using the old one must use the new.")
        )
        return redirect("profile")
    return render(request, "account/token_confirm.html")
