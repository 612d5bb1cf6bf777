"""`{{ value|local_number }}`: a figure the league wrote out ("-0.50", "68.75", "3"), in the
reader's locale ("-0,50" in German), with as many decimal places as it was written with.

The standings snapshot and the travellers round their figures once, in Python, half to even
(docs/league.md); this only changes how the digits are shown, never the rounding."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import template
from django.utils import formats

register = template.Library()


@register.filter
def local_number(value: Any) -> Any:
    """The number in the active language's format; anything that is not a number unchanged."""
    if isinstance(value, bool) or value is None or value == "":
        return value
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return value
    if not number.is_finite():
        return value
    exponent = number.as_tuple().exponent
    places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    return formats.number_format(number, decimal_pos=places)
