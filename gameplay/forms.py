"""Form helpers shared by every form that asks for a game's variant: the lobby's table form and
the league's event form (which reaches it through `gameplay.api.variant_field`).

Only `django.forms` (and the translated labels) here — no models, nothing that needs the app
registry — so `gameplay.api` can import it at module level.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext

from gameplay.variant_labels import flag_label, value_label


def variant_field(flag: dict[str, Any]) -> forms.Field:
    """A form field for one flag of a game's `variant_schema()`, its cleaned value typed as the
    schema has it (a choice of ints cleans to an int, not its text), so a form's variant is the
    variant `validate_variant` expects without mapping it back. Its label and its choices'
    labels are the schema's, translated (`gameplay.variant_labels`): what the rules page, the
    table and the event page call them too."""
    label = flag_label(flag)
    help_text = gettext(flag["help"]) if flag.get("help") else ""
    if flag["type"] == "bool":
        return forms.BooleanField(
            label=label, required=False, initial=flag["default"], help_text=help_text
        )
    if flag["type"] == "int":
        return forms.IntegerField(
            label=label,
            min_value=flag["min"],
            max_value=flag["max"],
            initial=flag["default"],
            help_text=help_text,
        )
    choices = tuple(flag["choices"])
    return forms.TypedChoiceField(
        label=label,
        # The schema's choices may be ints or strings: the posted text is mapped back to the
        # value (an unknown text never gets here: the choices are checked first).
        choices=[(str(c), value_label(flag, c)) for c in choices],
        coerce=lambda text: next(c for c in choices if str(c) == text),
        initial=str(flag["default"]),
        help_text=help_text,
    )
