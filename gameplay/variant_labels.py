"""A variant flag and its value as a person reads them, translated: one place for every page.

The engine's schema (`GameSpec.variant_schema()`) carries each flag's English `label` and, for
a choice, its `choice_labels` (marked with `gettext_noop` in the engine, which imports no
Django); they are translated here, when a page is drawn. The lobby's and the event's forms
(`gameplay.forms.variant_field`), the rules pages, the table pages and the league's event pages
(through `gameplay.api.describe_variant`) all read them from here, so a flag is called the same
everywhere and no page shows a raw `key=value`.

Only `django.utils.translation` here, so `gameplay.api` and `gameplay.forms` can import it at
module level.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext


def flag_label(flag: dict[str, Any]) -> str:
    """The flag's label ("Payout" for `payout`), translated."""
    return gettext(flag.get("label") or flag["name"].replace("_", " ").capitalize())


def value_label(flag: dict[str, Any], value: Any) -> str:
    """A value of the flag as a person reads it, translated: "on"/"off" for a yes-or-no flag,
    a choice's label ("score differences" for `raw`), a number as it is. A value the schema
    does not list (a stored variant of an older engine) is shown as it is, never an error."""
    if flag["type"] == "bool" and isinstance(value, bool):
        return gettext("on") if value else gettext("off")
    if flag["type"] == "choice":
        for choice, label in zip(flag["choices"], flag.get("choice_labels", ()), strict=False):
            # Typed as the schema has them: 1 is not True, "10" is not 10.
            if type(choice) is type(value) and choice == value:
                return gettext(label)
    return str(value)
