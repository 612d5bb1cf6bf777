"""The "How to play" pages: `/rules/` lists the games, `/games/<game>/` explains one.

Each registered game has its rules page in its own package, `games/<game>/site/rules.html` (it
extends `gameplay/rules/_page.html`; served by `gameplay/game_site.py`), found by the game's
registered name: nothing here names a game, and a name the registry does not know is a 404.
The pages read no database table.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from gameplay import api
from games import catalogue


def rules_template(game: str) -> str:
    """The template of a registered game's rules page (a game's "rules page" of
    docs/architecture.md)."""
    return f"games/{game}/rules.html"


def _described(flag: dict[str, Any]) -> dict[str, Any]:
    """A flag of the schema with what its heading shows: the lobby form's label and the
    default's, and each choice's label (`options`, by the choice's text) for its explanation;
    the same translated labels as the forms and the tables (`gameplay.variant_labels`)."""
    options = {str(c): api.value_label(flag, c) for c in flag.get("choices", ())}
    return {
        **flag,
        "label": api.flag_label(flag),
        "default_text": api.value_label(flag, flag["default"]),
        "options": options,
    }


@require_GET
def rules_index(request: HttpRequest) -> HttpResponse:
    """Every game with its goal, seats and a link to its page."""
    return render(request, "gameplay/rules/index.html", {"games": catalogue.games()})


@require_GET
def rules_page(request: HttpRequest, game: str) -> HttpResponse:
    """One game's rules; its variant flags come from the engine's schema (`flags` by name)."""
    try:
        info = catalogue.game(game)
    except KeyError:
        raise Http404("no such game") from None
    context = {
        "game": info,
        "flags": {flag["name"]: _described(flag) for flag in info.variant_schema},
        "games": catalogue.games(),
    }
    return render(request, rules_template(info.name), context)
