"""The lobby's form: a friendly table for any game, its variant flags built from the registry.

One form serves every game: each game's flags are fields named `<game>__<flag>` (grouped per
game for the page, which shows only the chosen game's group), and only the chosen game's flags
make the variant. Nothing here names a game. The variant fields are `gameplay.forms.
variant_field`'s (the league's event form uses the same one); the bounds are the lobby service's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from gameplay import api
from gameplay.forms import variant_field
from gameplay.paces import DEFAULT_PACE, PACES
from gameplay.services.lobby import MAX_DEALS, MAX_SECONDS_PER_MOVE
from games import bots as bot_registry
from games import catalogue

CUSTOM = ""  # the pace field's value for a clock given in seconds


@dataclass(frozen=True)
class GameFlags:
    """One game's group of variant fields, for the template."""

    game: catalogue.GameInfo
    fields: list[forms.BoundField]


class CreateTableForm(forms.Form):
    """Create a friendly table: `service_kwargs()` are `lobby.create_friendly`'s arguments."""

    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=catalogue.game_choices)
    deals = forms.IntegerField(
        label=gettext_lazy("Deals"),
        required=False,
        min_value=1,
        max_value=MAX_DEALS,
        help_text=gettext_lazy("blank: everyone deals once"),
    )
    pace = forms.ChoiceField(
        label=gettext_lazy("Pace"),
        required=False,
        choices=lambda: (
            [(p.name, p.label) for p in PACES.values()]
            + [(CUSTOM, gettext_lazy("Custom clock (seconds per move below)"))]
        ),
        initial=DEFAULT_PACE,
    )
    seconds_per_move = forms.IntegerField(
        label=gettext_lazy("Seconds per move"),
        required=False,
        min_value=0,
        max_value=MAX_SECONDS_PER_MOVE,
        initial=30,
        help_text=gettext_lazy("with a custom clock; 0: no clock (a rated table needs one)"),
    )
    rated = forms.TypedChoiceField(
        label=gettext_lazy("Rated or casual"),
        choices=[("1", gettext_lazy("Rated")), ("0", gettext_lazy("Casual"))],
        coerce=lambda v: v == "1",
        initial="1",
        widget=forms.RadioSelect,
    )
    spectators = forms.BooleanField(
        label=gettext_lazy("Spectators may watch"), required=False, initial=True
    )
    private = forms.BooleanField(
        label=gettext_lazy("Private"),
        required=False,
        help_text=gettext_lazy("not listed here; joined only through its invitation"),
    )
    seats = forms.TypedChoiceField(
        label=gettext_lazy("Table"),
        choices=[
            ("3", gettext_lazy("Three players")),
            ("4", gettext_lazy("Four players, the dealer sits out each deal")),
        ],
        coerce=int,
        required=False,
        initial="3",
        widget=forms.RadioSelect,
        help_text=gettext_lazy(
            "At a table of four each deal is played by three: the dealer sits out, in turn."
        ),
    )
    bots = forms.IntegerField(
        label=gettext_lazy("Seats played by bots"),
        min_value=0,
        initial=0,
        help_text=gettext_lazy("the last seats; the others are open for people"),
    )
    bot_level = forms.ChoiceField(
        label=gettext_lazy("Bot level"),
        choices=lambda: [(lv, api.bot_level_label(lv)) for lv in bot_registry.all_levels()],
        initial=bot_registry.DEFAULT_LEVEL,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.games = catalogue.games()
        if self.is_bound:
            self.data = self._with_other_games_defaults(self.data)
        self.fields["bots"].max_value = max(max(g.table_sizes) for g in self.games) - 1
        self.fields["bots"].widget.attrs["max"] = self.fields["bots"].max_value
        for game in self.games:
            for flag in game.variant_schema:
                field = variant_field(flag)
                # Not required in HTML: a hidden group must not block the browser's submit;
                # clean() asks for the chosen game's values.
                field.required = False
                self.fields[self.flag_field(game.name, flag["name"])] = field

    def _with_other_games_defaults(self, data: Any) -> Any:
        """The posted data with every other game's flags at their defaults: their groups were
        hidden and not sent, and a form shown again after an error must not offer those games
        with empty rules (switching to one would then be refused for a blank field)."""
        chosen = data.get("game")
        data = data.copy()
        for game in self.games:
            if game.name == chosen:
                continue
            for flag in game.variant_schema:
                name = self.flag_field(game.name, flag["name"])
                if name in data:
                    continue
                if flag["type"] == "bool":
                    if flag["default"]:
                        data[name] = "on"
                else:
                    data[name] = str(flag["default"])
        return data

    @staticmethod
    def flag_field(game: str, flag: str) -> str:
        return f"{game}__{flag}"

    def game_flags(self) -> list[GameFlags]:
        """Each game with its bound variant fields (the page shows the chosen game's)."""
        return [
            GameFlags(g, [self[self.flag_field(g.name, f["name"])] for f in g.variant_schema])
            for g in self.games
        ]

    def seat_counts(self) -> dict[str, list[int]]:
        """The sizes of table per game, for the page's script (the table choice is shown for
        a game with two; the most bots a table can have)."""
        return {g.name: list(g.table_sizes) for g in self.games}

    def table_size(self) -> int:
        """The chosen size of table (after `is_valid()`): the choice where the game offers
        two, else the game's own."""
        info = next(g for g in self.games if g.name == self.cleaned_data["game"])
        chosen = self.cleaned_data.get("seats")
        return chosen if chosen in info.table_sizes else info.seats

    def full_clean(self) -> None:
        # Only the chosen game's flags count: the other games' groups are hidden, and a bad
        # value there (or none at all) must not block the form.
        super().full_clean()
        if not self.is_bound or self._errors is None:
            return
        chosen = self.data.get("game")
        for game in self.games:
            if game.name != chosen:
                for flag in game.variant_schema:
                    self._errors.pop(self.flag_field(game.name, flag["name"]), None)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        name = data.get("game")
        if not name:
            return data
        info = next(g for g in self.games if g.name == name)
        for flag in info.variant_schema:
            field = self.flag_field(name, flag["name"])
            if flag["type"] != "bool" and field in data and data[field] in (None, ""):
                self.add_error(field, gettext("This field is required."))
        size = data.get("seats") if data.get("seats") in info.table_sizes else info.seats
        if data.get("bots") is not None and data["bots"] > size - 1:
            self.add_error(
                "bots",
                gettext("%(game)s seats %(seats)d: at most %(most)d bots.")
                % {"game": info.display_name, "seats": size, "most": size - 1},
            )
        if size != info.seats and data.get("deals") and data["deals"] % size:
            self.add_error(
                "deals",
                gettext(
                    "At a table of four each seat sits out in turn: deals must be a multiple of 4."
                ),
            )
        level = data.get("bot_level")
        if data.get("bots") and level and level not in bot_registry.levels(name):
            self.add_error(
                "bot_level",
                gettext("%(game)s has no %(level)s bot.")
                % {"game": info.display_name, "level": level},
            )
        return data

    def variant(self) -> dict[str, Any]:
        """The chosen game's flags, typed as the schema has them."""
        name = self.cleaned_data["game"]
        info = next(g for g in self.games if g.name == name)
        return {
            f["name"]: self.cleaned_data[self.flag_field(name, f["name"])]
            for f in info.variant_schema
        }

    def service_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of `lobby.create_friendly` (after `is_valid()`)."""
        data = self.cleaned_data
        return {
            "game": data["game"],
            "variant": self.variant(),
            "deals": data["deals"],
            "bots": data["bots"],
            "bot_level": data["bot_level"],
            # A pace sets the clock; the seconds count only with a custom clock.
            **(
                {"pace": data["pace"]}
                if data.get("pace")
                else {"seconds_per_move": data["seconds_per_move"]}
            ),
            "rated": data["rated"],
            "spectators": data["spectators"],
            "private": data["private"],
            "seats": self.table_size(),
        }
