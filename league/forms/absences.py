"""The organizer's "Mark absent" form of a table (its fixture page): which seats, and after
which deal. `league.services.absences.mark_absent` decides; the form only reads the choice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext, pgettext_lazy

from league.models import Seat


class AbsenceForm(forms.Form):
    """The seats of people at the table (a bot is never absent), and the deals played before
    the absence: none (a no-show), or 1 up to the match's length less one where the table's
    deals can be read (`deals`: 1 over the table, where the deals played are typed in the
    score grid instead)."""

    seats = forms.MultipleChoiceField(
        label=_("Absent"), widget=forms.CheckboxSelectMultiple, required=True
    )
    after_deal = forms.TypedChoiceField(
        label=pgettext_lazy("absent since", "Since when"),
        coerce=int,
        required=False,
        empty_value=0,
        initial=0,
    )

    def __init__(self, *args: Any, seats: Sequence[Seat], deals: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seats"].choices = [
            (str(s.number), s.player.name) for s in seats if not s.player.is_builtin_bot
        ]
        # after the last deal the match is over: its result counts, no absence
        played = [
            (k, pgettext("absent since", "after deal %(k)s") % {"k": k}) for k in range(1, deals)
        ]
        self.fields["after_deal"].choices = [
            (0, pgettext("absent since", "before the first deal")),
            *played,
        ]

    def absent_seats(self) -> list[int]:
        return sorted(int(s) for s in self.cleaned_data["seats"])
