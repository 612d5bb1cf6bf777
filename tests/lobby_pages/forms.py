"""What the lobby's create form posts, built from the engine registry like the form itself."""

from __future__ import annotations

from typing import Any

from games import catalogue


def flipped_variant(game: str) -> dict[str, Any]:
    """As many flags of `game` as the rules allow together set to a value other than their
    default (typed as the schema), the rest at their defaults."""
    schema = catalogue.game(game).variant_schema
    out: dict[str, Any] = {f["name"]: f["default"] for f in schema}
    for flag in schema:
        if flag["type"] == "bool":
            other = not flag["default"]
        elif flag["type"] == "int":
            other = flag["max"] if flag["default"] != flag["max"] else flag["min"]
        else:
            other = next(c for c in reversed(flag["choices"]) if c != flag["default"])
        try:
            catalogue.validate_variant(game, {**out, flag["name"]: other})
        except catalogue.VariantError:
            continue  # a combination the game's rules refuse
        out[flag["name"]] = other
    return out


def form_data(game: str, variant: dict[str, Any] | None = None, **fields: Any) -> dict[str, str]:
    """The POST body of the create form for `game`: its flags as `<game>__<flag>` fields (a
    false checkbox is left out, as a browser does), the other fields as given."""
    data = {
        "game": game,
        "deals": "",
        "seconds_per_move": "30",
        "rated": "1",
        "spectators": "on",
        "bots": "0",
        "bot_level": "basic",
    }
    for name, value in (variant or {}).items():
        if value is True:
            data[f"{game}__{name}"] = "on"
        elif value is not False:
            data[f"{game}__{name}"] = str(value)
    for name, value in fields.items():
        if value is None:
            data.pop(name, None)
        else:
            data[name] = str(value)
    return data
