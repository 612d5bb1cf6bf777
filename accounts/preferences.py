"""`/accounts/preferences/`: how the site shows a game to this person (lichess's display
preferences): the card faces and whether a move asks for confirmation.

The table and replay pages put both on their root element (`data-card-faces`,
`data-confirm-moves`, docs/browser.md); the rules pages and the hand records draw their card
letters by the same choice. A visitor without an account gets the defaults.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from accounts.models import User

DEFAULTS = {"card_faces": User.CardFaces.HOME.value, "confirm_moves": User.ConfirmMoves.AUTO.value}


def display_preferences(user: Any) -> dict[str, str]:
    """The viewer's choices, as the pages' attributes spell them (the defaults for a visitor)."""
    if not getattr(user, "is_authenticated", False):
        return dict(DEFAULTS)
    return {"card_faces": user.card_faces, "confirm_moves": user.confirm_moves}


def card_faces(user: Any) -> str:
    """`home` (the letters and suits of the game's home) or `french` (J Q K A, French suits)."""
    return display_preferences(user)["card_faces"]


class PreferencesForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["card_faces", "confirm_moves"]
        widgets = {"card_faces": forms.RadioSelect, "confirm_moves": forms.RadioSelect}
        labels = {"card_faces": _("Card faces"), "confirm_moves": _("Confirm moves")}
        help_texts = {
            "card_faces": _(
                "The game's home: German pages show B, D, K, A (Bube, Dame, König, Ass); "
                "Mediatore is drawn with Italian suits (denari, coppe, spade, bastoni)."
            ),
            "confirm_moves": _(
                "Ask before a card or a bid is sent. Automatic asks on touch screens only."
            ),
        }


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    """The form; its POST saves both choices (an unknown value is refused, nothing changes)."""
    form = PreferencesForm(request.POST or None, instance=request.user)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            messages.success(request, gettext("Your preferences are saved."))
            return redirect("preferences")
        return render(request, "account/preferences.html", {"form": form}, status=400)
    return render(request, "account/preferences.html", {"form": form})
