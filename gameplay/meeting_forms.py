"""The lobby's forms for meeting people: a seek (quick pairing) and a challenge by name.

Their `service_kwargs()` are the services' arguments; the services check them again (the API
goes there directly), so these only shape the choices a person sees.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from gameplay import paces
from gameplay.services.seeks import BOT_WAITS
from games import catalogue

NEVER = ""


def pace_choices() -> list[tuple[str, Any]]:
    """The live paces, in the registry's order, as a person reads them (a seek's: quick
    pairing meets people now)."""
    return [(p.name, p.label) for p in paces.live_paces()]


def challenge_pace_choices() -> list[tuple[str, Any]]:
    """Every pace, the turn-based ones too: a challenge is a game with someone you know, who may
    well play it by the day."""
    return [(p.name, p.label) for p in paces.friendly_paces()]


def bot_wait_label(seconds: int | None) -> Any:
    """How a bot wait reads: "never", "after 30 s", "after 2 min"."""
    if seconds is None:
        return gettext_lazy("Never: people only")
    if seconds % 60 == 0:
        return gettext_lazy("After %(n)d min") % {"n": seconds // 60}
    return gettext_lazy("After %(n)d s") % {"n": seconds}


def _rated_field() -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label=gettext_lazy("Rated or casual"),
        choices=[("1", gettext_lazy("Rated")), ("0", gettext_lazy("Casual"))],
        coerce=lambda v: v == "1",
        initial="1",
        widget=forms.RadioSelect,
    )


class SeekForm(forms.Form):
    """Seek a table with people: game, pace, when bots may fill it, rated or casual."""

    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=catalogue.game_choices)
    pace = forms.ChoiceField(
        label=gettext_lazy("Pace"), choices=pace_choices, initial=paces.DEFAULT_PACE
    )
    bots_after = forms.TypedChoiceField(
        label=gettext_lazy("Fill with bots"),
        choices=lambda: [(NEVER if w is None else str(w), bot_wait_label(w)) for w in BOT_WAITS],
        coerce=lambda v: None if v == NEVER else int(v),
        empty_value=None,
        required=False,
        initial="60",
        help_text=gettext_lazy("when nobody else comes, bots take the empty seats"),
    )
    rated = _rated_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        kwargs.setdefault("auto_id", "seek_%s")
        super().__init__(*args, **kwargs)

    def service_kwargs(self) -> dict[str, Any]:
        return {k: self.cleaned_data[k] for k in ("game", "pace", "bots_after", "rated")}


class ChallengeForm(forms.Form):
    """Challenge a player by name to a game at a pace."""

    player = forms.CharField(
        label=gettext_lazy("Player's name"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=catalogue.game_choices)
    pace = forms.ChoiceField(
        label=gettext_lazy("Pace"), choices=challenge_pace_choices, initial=paces.DEFAULT_PACE
    )
    rated = _rated_field()
    bots = forms.TypedChoiceField(
        label=gettext_lazy("The other seats"),
        choices=[("1", gettext_lazy("Bots")), ("0", gettext_lazy("Open for people"))],
        coerce=lambda v: v == "1",
        initial="1",
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        kwargs.setdefault("auto_id", "challenge_%s")
        super().__init__(*args, **kwargs)

    def service_kwargs(self) -> dict[str, Any]:
        return {k: self.cleaned_data[k] for k in ("player", "game", "pace", "rated", "bots")}
