"""Event formats as a registry: one `Format` object per format, found by name.

To add a format: write its module beside these (a `Format` subclass, see base.py), import it
here and register an instance below. Nothing else changes: model choices, forms, the API,
previews and the league's services read the registry (docs/scheduling.md).
"""

from league.scheduling.formats.base import Format, gettext_noop
from league.scheduling.formats.knockout import Knockout
from league.scheduling.formats.league import League
from league.scheduling.formats.registry import formats, get_format, register, unregister
from league.scheduling.formats.swiss import Swiss

# The built-in formats, in the order forms offer them.
register(League())
register(Swiss())
register(Knockout())

__all__ = [
    "Format",
    "Knockout",
    "League",
    "Swiss",
    "formats",
    "get_format",
    "gettext_noop",
    "register",
    "unregister",
]
