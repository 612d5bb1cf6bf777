"""A variant is shown as a person reads it: "Payout: score differences", never `payout=raw`.

`payout`, `zero_sum` and `discard_then_take` are keys for records, the API and the forms' posted
values; a person reads the engine's labels (`Flag.label`, `Flag.labels`, translated by
`gameplay.api.describe_variant`). Every game, at its defaults and with as many flags changed as
its rules allow together, on every page that shows a variant: the event page and its help page,
the lobby's create form, its list of tables and a table's invitation, and a table's header.
Also: the standings' "Ranked by …" line and the variant labels go through the translation.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from gameplay import api as gameplay
from gameplay.services import lobby
from games import catalogue, registry
from league.standings import get_tiebreak
from tests.gameplay.conftest import make_users
from tests.lobby_pages.forms import flipped_variant

from .visible import visible_text

pytestmark = pytest.mark.django_db

GAMES = [g.name for g in catalogue.games()]
# What a raw variant looks like in text: `key=value`, or a key with an underscore in it.
RAW = re.compile(r"\w+=\w+|(?<![\w-])[a-z0-9]+(?:_[a-z0-9]+)+(?![\w-])")


def variants(game: str) -> dict[str, dict[str, Any]]:
    return {"default": {}, "changed": flipped_variant(game)}


def seen(html: bytes | str) -> str:
    """The page's visible text, the separators put back against the words before them (each
    flag is its own <span>, a help page's label its own link: their own text nodes)."""
    return visible_text(html).replace(" , ", ", ").replace(" : ", ": ")


def shown(pairs: list[tuple[str, str]]) -> str:
    """The text `templates/_variant.html` draws for these pairs."""
    return ", ".join(f"{label}: {value}" for label, value in pairs)


# ------------------------------------------------------------------ describe_variant itself


@pytest.mark.parametrize("game", GAMES)
def test_every_flag_and_choice_has_a_label_a_person_reads(game):
    for flag in registry.get_game(game).flags:  # the engine's own, not the name's fallback
        assert flag.label, f"{game}: flag {flag.name} has no label"
        for choice in flag.choices:  # a word needs a label; "8-5-3" or 10 reads as it is
            assert str(choice) in flag.labels or not re.search("[a-z]", str(choice)), choice
    schema = catalogue.game(game).variant_schema
    for flag in schema:
        assert flag["label"] and not RAW.search(flag["label"]), flag["name"]
        if flag["type"] == "choice":
            labels = flag["choice_labels"]
            assert len(set(labels)) == len(flag["choices"]), flag["name"]  # told apart
            assert not any(RAW.search(label) for label in labels), (flag["name"], labels)
    for which, variant in variants(game).items():
        described = gameplay.describe_variant(game, variant)
        full = catalogue.validate_variant(game, variant)
        assert [label for label, _ in described] == [f["label"] for f in schema]
        assert [value for _, value in described] == [
            gameplay.value_label(f, full[f["name"]]) for f in schema
        ], which
        assert not RAW.search(shown(described)), (which, described)


@pytest.mark.parametrize("game", GAMES)
def test_changed_only_tells_what_differs_from_the_usual_game(game):
    assert gameplay.describe_variant(game, {}, changed_only=True) == []
    variant = flipped_variant(game)
    changed = {k for k, v in variant.items() if v != catalogue.game(game).defaults[k]}
    assert changed, "a game with flags can change one"
    described = gameplay.describe_variant(game, variant, changed_only=True)
    by_name = {f["name"]: f for f in catalogue.game(game).variant_schema}
    assert described == [
        (by_name[n]["label"], gameplay.value_label(by_name[n], variant[n]))
        for n in by_name
        if n in changed
    ]


def test_the_labels_are_the_engines_and_a_stored_variant_never_breaks_a_page():
    assert gameplay.describe_variant("saichugen", {"payout": "raw"}) == [
        ("Payout", "score differences")
    ]
    assert gameplay.describe_variant("schieberamsch", {"score_divisor": 1})[0] == (
        "Scores",
        "card points",
    )
    assert ("Woburn bidding", "on") in gameplay.describe_variant(
        "three_five_eight", {"woburn_bidding": True}
    )
    # A game since removed, a flag since removed, a value the engine no longer lists.
    assert gameplay.describe_variant("a_game_since_removed", {"x": 1}) == []
    assert gameplay.describe_variant("saichugen", {"gone": True, "payout": "odd"}) == [
        ("Payout", "odd")
    ]
    assert gameplay.describe_variant("saichugen", None) == [("Payout", "fixed, +2/-1 or +1/-2")]


# ------------------------------------------------------------------ the pages


@pytest.mark.parametrize("which", ["default", "changed"])
@pytest.mark.parametrize("game", GAMES)
def test_the_event_pages_show_the_variant_by_its_labels(client, make_event, game, which):
    variant = variants(game)[which]
    seats = catalogue.game(game).seats
    event = make_event(game, players=seats, variant=variant, name="Variant cup")
    described = gameplay.describe_variant(game, event.variant)
    page = seen(client.get(reverse("league:event", args=[event.slug])).content)
    assert f"Variant: {shown(described)}" in page
    help_page = seen(client.get(reverse("league:event_help", args=[event.slug])).content)
    for label, value in described:
        assert f"{label}: {value}" in help_page
    for text in (page, help_page):
        assert not RAW.findall(text), (game, which, RAW.findall(text))


@pytest.mark.parametrize("which", ["default", "changed"])
@pytest.mark.parametrize("game", GAMES)
def test_the_lobby_and_the_table_show_the_variant_by_its_labels(game, which):
    ana, ben = make_users("ana", "ben")
    variant = variants(game)[which]
    seats = catalogue.game(game).seats
    waiting = lobby.create_friendly(ana, game=game, variant=variant).table
    playing = lobby.create_friendly(ana, game=game, variant=variant, bots=seats - 1).table
    everything = gameplay.describe_variant(game, variant)
    changed = gameplay.describe_variant(game, variant, changed_only=True)
    as_ana, as_ben = Client(), Client()
    as_ana.force_login(ana)
    as_ben.force_login(ben)

    invitation = seen(as_ben.get(reverse("gameplay:join", args=[waiting.id])).content)
    assert f"Rules {shown(everything)}" in invitation
    lobby_page = as_ben.get(reverse("gameplay:play")).content.decode()
    listed = seen(lobby_page)  # the open table in the list, and the create form
    table_html = as_ana.get(reverse("gameplay:table", args=[playing.id])).content.decode()
    table_page = seen(table_html)
    if changed:
        assert f" · {shown(changed)}" in listed
        assert f" · {shown(changed)}" in table_page
    else:  # the usual game: nothing to point out
        assert 'class="rules"' not in lobby_page and 'id="variant"' not in table_html
    for text in (invitation, listed, table_page):
        assert not RAW.findall(text), (game, which, RAW.findall(text))


def test_the_lobby_form_names_each_flag_and_option_by_its_label():
    (ana,) = make_users("ana")
    client = Client()
    client.force_login(ana)
    html = client.get(reverse("gameplay:play")).content.decode()
    assert '<option value="raw">score differences</option>' in html  # posted as the key
    assert '<option value="10" selected>card points ÷ 10</option>' in html
    assert ">Kitty</label>" in html


# ------------------------------------------------------------------ translated


@pytest.fixture
def pseudo_translated(monkeypatch):
    """A pretend catalog: every message translated as ⟪message⟫, as a real one would change it
    (the project ships no catalog yet, so the English would pass untranslated unseen)."""
    real = translation._trans.gettext  # the real one, looked up before it is replaced
    monkeypatch.setattr(translation._trans, "gettext", lambda message: f"⟪{real(message)}⟫")


def test_the_variant_labels_are_translated(pseudo_translated):
    assert gameplay.describe_variant("saichugen", {"payout": "raw"}) == [
        ("⟪Payout⟫", "⟪score differences⟫")
    ]
    assert gameplay.describe_variant("mediatore", {"chiamo_threes_only": True})[-1] == (
        "⟪Chiamo calls a 3 only⟫",
        "⟪on⟫",
    )
    field = gameplay.variant_field(catalogue.game("saichugen").variant_schema[0])
    assert field.label == "⟪Payout⟫" and str(field.help_text).startswith("⟪fixed")
    assert ("raw", "⟪score differences⟫") in field.choices


def test_the_ranked_by_line_translates_the_tiebreak_labels(client, make_event, pseudo_translated):
    order = ["total_payouts", "opponents_average_payout", "lot"]
    event = make_event("saichugen", players=3, tiebreaks=order)
    page = seen(client.get(reverse("league:standings", args=[event.slug])).content)
    labels = ", ".join(f"⟪{get_tiebreak(name).label}⟫" for name in order)
    # The sentence is a catalog entry too, the labels inside it translated one by one.
    assert f"⟪Ranked by match points, then {labels}.⟫" in page
