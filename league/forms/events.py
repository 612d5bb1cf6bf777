"""Forms of the organizer pages; the variant fields are generated from the engine's schema
(`gameplay.api.variant_field`, the lobby's too)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, gettext_lazy

from gameplay import api as gameplay
from games import catalogue
from league.models import Event, default_time_zone
from league.services.event_times import time_zone_names
from league.services.events import (
    DEFAULT_TIEBREAKS,
    LOCKED_ONCE_PLANNED,
    MAX_BYE_MATCH_POINTS,
    MAX_ROUNDS,
    MAX_SECONDS_PER_MOVE,
    max_deals_per_match,
    scoring_problems,
    size_problems,
    table_problems,
)
from league.standings import tiebreak_choices

# The schedule's settings (league.services.schedule): optional in a post, defaults kept.
SCHEDULE_FIELDS = ("time_zone", "deadline_policy", "extension_days")
# Settings added since the form's first clients: optional in a post, the event's kept.
KEPT_IF_LEFT_OUT = (*SCHEDULE_FIELDS, "bot_level", "scoring", "duplicate_rank")


def time_zone_choices() -> list[tuple[str, str]]:
    return [(name, name) for name in time_zone_names()]


class OrderedSelects(forms.MultiWidget):
    """An ordered chooser without script: a numbered list of selects, the 1st choice first.

    Posts `<name>_0`, `<name>_1`, … in order; a post of `<name>` as a list (an older client,
    a test) is read in the order it was sent."""

    def __init__(self, choices: Sequence[tuple[str, str]], size: int, item_label: str) -> None:
        options = [("", "—"), *choices]
        super().__init__([forms.Select(choices=options) for _ in range(size)])
        self.item_label = item_label

    def decompress(self, value: Any) -> list[str]:
        return list(value or [])

    def value_from_datadict(self, data: Any, files: Any, name: str) -> list[str]:
        slots = [f"{name}_{i}" for i in range(len(self.widgets))]
        if any(slot in data for slot in slots):
            return [data.get(slot, "") for slot in slots]
        getlist = getattr(data, "getlist", None)
        if getlist is not None:
            return list(getlist(name))
        value = data.get(name)
        return list(value) if isinstance(value, list | tuple) else []

    def value_omitted_from_data(self, data: Any, files: Any, name: str) -> bool:
        return name not in data and not any(f"{name}_{i}" in data for i in range(len(self.widgets)))

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> str:
        values = value if isinstance(value, list) else self.decompress(value)
        base = self.build_attrs(self.attrs, attrs)
        items = []
        for i, widget in enumerate(self.widgets):
            item_attrs = {**base, "aria-label": self.item_label % {"n": i + 1}}
            if base.get("id"):
                item_attrs["id"] = f"{base['id']}_{i}"
            current = values[i] if i < len(values) else ""
            items.append((widget.render(f"{name}_{i}", current, item_attrs, renderer),))
        return format_html(
            '<ol class="ordered-choice"{}>{}</ol>',
            flatatt({"data-field": name}),
            format_html_join("", "<li>{}</li>", items),
        )


class OrderedChoiceField(forms.Field):
    """Some of `choices`, each at most once, in the order the person put them."""

    def __init__(self, *, choices: Iterable[tuple[str, str]], item_label: str, **kwargs: Any):
        self.choices = [(str(k), str(v)) for k, v in choices]
        kwargs.setdefault("widget", OrderedSelects(self.choices, len(self.choices), item_label))
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> list[str]:
        if value in self.empty_values:
            return []
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in value if v not in ("", None)]

    def validate(self, value: list[str]) -> None:
        super().validate(value)
        labels = dict(self.choices)
        seen: set[str] = set()
        for name in value:
            if name not in labels:
                raise forms.ValidationError(
                    gettext("%(name)s is not one of the choices") % {"name": name}
                )
            if name in seen:
                raise forms.ValidationError(
                    gettext("“%(label)s” is chosen twice: choose each one once")
                    % {"label": labels[name]}
                )
            seen.add(name)

    def has_changed(self, initial: Any, data: Any) -> bool:
        return list(initial or []) != self.to_python(data)


def tiebreak_order_field() -> OrderedChoiceField:
    """The event form's tie-breaks: a numbered list of selects, kept in the chosen order."""
    return OrderedChoiceField(
        choices=[(name, gettext(label)) for name, label in tiebreak_choices()],
        item_label=gettext("Tie-break %(n)s"),
        required=False,
        label=gettext_lazy("Tie-breaks"),
        help_text=gettext_lazy(
            "after match points, in this order: the 1st decides first, the next only between "
            "players it leaves level; leave them all blank for the default order"
        ),
    )


def bot_level_field(game: str) -> forms.ChoiceField:
    """The levels of the game's built-in bots, weakest first (gameplay's registry)."""
    return forms.ChoiceField(
        label=gettext_lazy("Bot level"),
        choices=[(lv, gameplay.bot_level_label(lv)) for lv in gameplay.bot_levels(game)],
        initial=Event._meta.get_field("bot_level").default,
        required=False,
        help_text=gettext_lazy(
            "level of the built-in bots that fill seats: leftover seats, and absent players' "
            "seats after an asynchronous round's deadline"
        ),
    )


def _bound(field: forms.Field, low: int, high: int) -> None:
    """Hold an integer field to [low, high], in the browser (min/max) and when cleaned."""
    field.validators += [MinValueValidator(low), MaxValueValidator(high)]
    field.widget.attrs.update({"min": low, "max": high})


class EventForm(forms.ModelForm):
    """Event settings for one game; `variant__<flag>` fields come from the game's schema.

    Once a round exists, what it used (`LOCKED_ONCE_PLANNED`: format, variant, deals, bot level,
    seed, scoring) is shown disabled with the reason, and a post that changes it anyway is
    refused here (and by `update_event`). A closed event's form is all disabled
    (`read_only`): nothing can change.
    """

    tiebreaks = forms.Field(required=False)  # replaced per form: `tiebreak_order_field`
    time_zone = forms.ChoiceField(
        label=gettext_lazy("Time zone"),
        choices=time_zone_choices,
        initial=default_time_zone,
        help_text=gettext_lazy("the event's times are shown and entered in it"),
    )

    class Meta:
        model = Event
        fields = [
            "name",
            "kind",
            "format",
            "rounds",
            "deals_per_match",
            "leftover",
            "bot_level",
            "rank_bots",
            "scoring",
            "duplicate_rank",
            "bye_match_points",
            "seconds_per_move",
            "pace",
            "on_timeout",
            "play_online",
            "allow_spectators",
            "table_chat",
            "allow_bot_accounts",
            "table_results",
            "seed",
            "time_zone",
            "asynchronous",
            "deadline_policy",
            "extension_days",
        ]
        # The model's fields without a translated name of their own (read in the reader's
        # language on the form).
        labels = {
            "name": gettext_lazy("Name"),
            "kind": gettext_lazy("Kind"),
            "format": gettext_lazy("Format"),
            "rounds": gettext_lazy("Rounds"),
            "deals_per_match": gettext_lazy("Deals per match"),
            "leftover": gettext_lazy("Players who do not fill a table"),
            "bye_match_points": gettext_lazy("Bye match points"),
            "seconds_per_move": gettext_lazy("Seconds per move"),
            "on_timeout": gettext_lazy("When the clock runs out"),
            "play_online": gettext_lazy("Play online"),
            "allow_spectators": gettext_lazy("Allow spectators"),
            "seed": gettext_lazy("Seed"),
        }
        help_texts = {
            "play_online": gettext_lazy(
                "publishing a round opens an online table for each fixture"
            ),
            "seed": gettext_lazy("makes round plans and the lot repeatable"),
        }

    def __init__(self, *args: Any, game: str, read_only: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.read_only = read_only
        self.schema = catalogue.game(game).variant_schema
        current = self.instance.variant if self.instance.pk else {}
        for flag in self.schema:
            field = gameplay.variant_field(flag)
            if flag["name"] in current:
                field.initial = current[flag["name"]]
            self.fields[f"variant__{flag['name']}"] = field
        for name in (*SCHEDULE_FIELDS, "scoring", "duplicate_rank"):  # left out (an older
            self.fields[name].required = False  # client): the event keeps its own
        self.fields["tiebreaks"] = tiebreak_order_field()
        self.fields["bot_level"] = bot_level_field(game)  # left out: the event keeps its own
        self.rounds_planned = self.instance.round_set.count() if self.instance.pk else 0
        _bound(self.fields["rounds"], max(1, self.rounds_planned), MAX_ROUNDS)
        _bound(self.fields["deals_per_match"], 1, max_deals_per_match())
        _bound(self.fields["seconds_per_move"], 0, MAX_SECONDS_PER_MOVE)
        # A pace by name, the turn-based ones too (days a move: the fixtures by the day).
        self.fields["pace"] = forms.ChoiceField(
            label=gettext_lazy("Pace"),
            required=False,
            choices=[("", gettext_lazy("Seconds per move above")), *gameplay.pace_choices()],
            help_text=gettext_lazy(
                "a pace of days plays the fixtures by the day: a move when you have a minute, "
                "the round's deadline on top"
            ),
        )
        if gameplay.pace_is_turn_based(self.instance.pace):
            # By the day the clock is the pace's: days of seconds in that box only confuse.
            self.initial["seconds_per_move"] = None
            self.fields["seconds_per_move"].required = False
            self.fields["seconds_per_move"].help_text = gettext_lazy(
                "set by the pace below (days a move); choose a pace of seconds to set it here"
            )
        _bound(self.fields["bye_match_points"], 0, MAX_BYE_MATCH_POINTS)
        self._offer_tables_of_four(game)
        if self.instance.pk:
            self.fields["tiebreaks"].initial = list(self.instance.tiebreaks)
        else:
            self.fields["tiebreaks"].initial = list(DEFAULT_TIEBREAKS)
            # A new event: blank means create_event draws a random seed.
            self.initial["seed"] = None
            self.fields["seed"].required = False
            self.fields["seed"].help_text = gettext_lazy(
                "makes round plans and the lot repeatable; leave it blank for a random one"
            )
        self.locked = self._locked_fields() if self.rounds_planned else []
        for name in self.locked:
            field = self.fields[name]
            field.disabled = True
            field.help_text = gettext("fixed: a round has been planned with it")
        if self.rounds_planned and not read_only:
            self._keep_tables_of_four()
        if self.rounds_planned:
            self.fields["rounds"].help_text = gettext(
                "%(n)s planned already: the event cannot have fewer"
            ) % {"n": self.rounds_planned}
        if read_only:
            for field in self.fields.values():
                field.disabled = True

    def _locked_fields(self) -> list[str]:
        """The form's fields for `LOCKED_ONCE_PLANNED` (a variant is one field per flag)."""
        names = []
        for locked in LOCKED_ONCE_PLANNED:
            if locked == "variant":
                names += [f"variant__{flag['name']}" for flag in self.schema]
            elif locked in self.fields:
                names.append(locked)
        return names

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("pace"):
            # A pace sets the clock itself: the seconds shown (maybe days of them) are its.
            self.errors.pop("seconds_per_move", None)
            data["seconds_per_move"] = gameplay.pace_seconds(data["pace"])
        elif data.get("seconds_per_move") is None and "seconds_per_move" not in self.errors:
            self.add_error("seconds_per_move", gettext("Give the seconds per move, or a pace."))
        for name in KEPT_IF_LEFT_OUT:
            if data.get(name) in (None, ""):
                data[name] = getattr(self.instance, name)  # the event's, or the default
        for name in self.locked:  # disabled fields keep their value; a post may still try
            field = self.fields[name]
            if name in self.data:  # (an unticked box is not posted: it cannot be told apart)
                posted = field.widget.value_from_datadict(self.data, self.files, name)
                if str(posted) != str(field.prepare_value(self.get_initial_for_field(field, name))):
                    self.add_error(name, gettext("this cannot change once rounds exist"))
        rounds, deals = data.get("rounds"), data.get("deals_per_match")
        if rounds is not None and deals is not None:
            for name, message in size_problems(rounds, deals):  # the service's own bounds
                self.add_error(name, message)
        self._check_scoring(data)
        return data

    def _keep_tables_of_four(self) -> None:
        """Once a round exists, tables of three and four can be neither chosen nor left (their
        deals and match points differ; `update_event` refuses it): the field is fixed in such
        an event, and does not offer them in another (byes and bots may still swap)."""
        field = self.fields["leftover"]
        if self.instance.has_tables_of_four:
            field.disabled = True
            field.help_text = gettext("fixed: a round has been planned with it")
            self.locked.append("leftover")
        else:
            field.choices = [c for c in field.choices if c[0] != Event.Leftover.MIXED]

    def _offer_tables_of_four(self, game: str) -> None:
        """ "Tables of three and four" only for a game of three also played at a four, with
        the deals it plays there (the reason deals per match then come in threes)."""
        info = catalogue.game(game)
        field = self.fields["leftover"]
        if info.seats != 3 or 4 not in info.table_sizes:
            field.choices = [c for c in field.choices if c[0] != Event.Leftover.MIXED]
            return
        deals = self.instance.deals_per_match if self.instance.pk else 6
        deals = deals if deals % 3 == 0 else 6
        field.help_text = gettext(
            "tables of three and four: nobody sits out from six players up (five: a table of "
            "four and a bye). A table of four plays 4/3 of the deals per match, its dealer "
            "sitting out each deal (%(three)s deals at a three, %(four)s at a four), so "
            "everybody plays the same number; deals per match are then a multiple of 3. Match "
            "points: +6 for a table's best, -6 for its last, at either size (the event's help "
            "page works an example)."
        ) % {"three": deals, "four": deals * 4 // 3}

    def _check_scoring(self, data: dict[str, Any]) -> None:
        """Duplicate scoring's rules (format, variant), beside the scoring field: the
        service's own (`scoring_problems`)."""
        variant_fields = [f"variant__{flag['name']}" for flag in self.schema]
        if any(name in self.errors for name in ("scoring", *variant_fields)):
            return
        try:
            variant = catalogue.validate_variant(self.game, self.variant())
        except (catalogue.VariantError, KeyError):
            return  # the service says what is wrong with the variant
        fields = {
            "game": self.game,
            "variant": variant,
            "format": data.get("format"),
            "scoring": data.get("scoring"),
            "duplicate_rank": data.get("duplicate_rank"),
            "leftover": data.get("leftover"),
            "deals_per_match": data.get("deals_per_match"),
        }
        for name, message in scoring_problems(fields) + table_problems(fields):
            if name not in self.locked:
                self.add_error(name, message)

    def variant(self) -> dict[str, Any]:
        """The chosen flags, typed as the schema has them (`variant_field` coerces)."""
        return {flag["name"]: self.cleaned_data[f"variant__{flag['name']}"] for flag in self.schema}

    def service_fields(self) -> dict[str, Any]:
        fields = {name: self.cleaned_data[name] for name in self.Meta.fields}
        fields["game"] = self.game
        fields["variant"] = self.variant()
        fields["tiebreaks"] = list(self.cleaned_data["tiebreaks"]) or None
        return fields


class EntryForm(forms.Form):
    player = forms.CharField(
        max_length=60, help_text=gettext_lazy("an existing player's name, or a new one")
    )
    checked_in = forms.BooleanField(required=False, initial=True)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _strict_json(text: str) -> Any:
    """JSON as the standard has it: no NaN or Infinity (the database refuses them)."""
    return json.loads(text, parse_constant=_reject_constant)


class ResultForm(forms.Form):
    """A record (uploaded or pasted) or a typed score sheet (JSON), plus forfeit and reason."""

    record_file = forms.FileField(required=False, label=gettext_lazy("Game record file (JSON)"))
    record_text = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
        label=gettext_lazy("…or paste the record"),
    )
    sheet_text = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
        label=gettext_lazy("…or type a score sheet (JSON)"),
        help_text=gettext_lazy(
            '{"deals": [{"scores": [..], "payouts": [..]}, ...]}; Mediatore: contracts'
        ),
    )
    forfeited_seats = forms.CharField(
        required=False, help_text=gettext_lazy("seat numbers that forfeited, comma-separated")
    )
    reason = forms.CharField(
        required=False, max_length=300, help_text=gettext_lazy("required for a correction")
    )
    # The version of the result the person saw (0: none): a resubmitted or stale form is refused.
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=32767)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        record_raw = None
        if data.get("record_file"):
            record_raw = data["record_file"].read().decode("utf-8", errors="replace")
        elif data.get("record_text", "").strip():
            record_raw = data["record_text"]
        sheet_raw = data.get("sheet_text", "").strip() or None
        if (record_raw is None) == (sheet_raw is None):
            raise forms.ValidationError(gettext("Give either a game record or a score sheet."))
        try:
            data["record"] = _strict_json(record_raw) if record_raw is not None else None
            data["sheet"] = _strict_json(sheet_raw) if sheet_raw is not None else None
        except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
            raise forms.ValidationError(
                gettext("Not valid JSON: %(error)s") % {"error": exc}
            ) from None
        try:
            data["forfeited"] = [
                int(s) for s in data.get("forfeited_seats", "").replace(" ", "").split(",") if s
            ]
        except ValueError:
            raise forms.ValidationError(gettext("Forfeited seats must be numbers.")) from None
        return data


# A deal set is a few hundred cards a deal: far below this, and a typo'd upload of something
# else (an image, a whole export) is refused before it is read.
MAX_DEAL_SET_BYTES = 512 * 1024


class DealSetForm(forms.Form):
    """A section's deal set (league.services.sections.upload_deals), as a JSON file or pasted:
    a list of deals, each with the records' `hands` (one list of card codes per seat) and
    `stock`, or a whole game record (its deals' hands and stock are read)."""

    deals_file = forms.FileField(required=False, label=gettext_lazy("Deal set file (JSON)"))
    deals_text = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 10}),
        label=gettext_lazy("…or paste the deal set"),
        help_text=gettext_lazy(
            '[{"hands": [["AS", "7H", ...], ...], "stock": [...]}, ...]: one deal per deal of '
            "the match, in order; each seat's hand, seat 0 first"
        ),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("deals_file")
        if upload is not None:
            if upload.size > MAX_DEAL_SET_BYTES:
                raise forms.ValidationError(
                    gettext("The file is too large for a deal set (at most %(kb)s KB).")
                    % {"kb": MAX_DEAL_SET_BYTES // 1024}
                )
            raw = upload.read().decode("utf-8", errors="replace")
        else:
            raw = data.get("deals_text", "")
        if not raw.strip():
            raise forms.ValidationError(gettext("Give a deal set: a JSON file, or paste it."))
        if len(raw) > MAX_DEAL_SET_BYTES:
            raise forms.ValidationError(
                gettext("The text is too long for a deal set (at most %(kb)s KB).")
                % {"kb": MAX_DEAL_SET_BYTES // 1024}
            )
        try:
            data["deals"] = _strict_json(raw)
        except (ValueError, RecursionError) as exc:
            raise forms.ValidationError(
                gettext("Not valid JSON: %(error)s") % {"error": exc}
            ) from None
        return data
