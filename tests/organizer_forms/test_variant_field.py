"""One variant field for every form that asks for a game's variant: the lobby's table form and
the league's event form both build theirs with `gameplay.api.variant_field`, its values typed
as the engine's schema has them."""

from __future__ import annotations

import pytest
from django import forms
from django.urls import reverse

from gameplay import api as gameplay
from gameplay import lobby_forms
from games import catalogue
from league.forms import events as league_forms
from league.models import Event
from tests.organizer_forms.conftest import forms_of


def test_both_forms_use_the_shared_helper():
    assert lobby_forms.variant_field is gameplay.variant_field
    assert not hasattr(league_forms, "variant_field")


@pytest.mark.parametrize("game", [g.name for g in catalogue.games()])
def test_every_flag_gets_the_same_field_in_both_forms(game):
    lobby = lobby_forms.CreateTableForm()
    event = league_forms.EventForm(game=game)
    for flag in catalogue.game(game).variant_schema:
        ours = event.fields[f"variant__{flag['name']}"]
        theirs = lobby.fields[lobby.flag_field(game, flag["name"])]
        assert type(ours) is type(theirs)
        assert ours.label == theirs.label


def test_a_choice_of_numbers_cleans_to_a_number():
    flag = {"name": "score_divisor", "type": "choice", "default": 10, "choices": [1, 10]}
    field = gameplay.variant_field(flag)
    assert isinstance(field, forms.TypedChoiceField)
    assert field.clean("1") == 1 and field.clean("10") == 10
    with pytest.raises(forms.ValidationError):
        field.clean("100")


def test_the_event_form_saves_a_typed_variant(client, olga):
    client.force_login(olga)
    url = reverse("league:event_create") + "?game=schieberamsch"
    (form,) = [f for f in forms_of(url, client.get(url).content) if "name" in f.fields]
    data = {**form.fields, "name": "Typed", "variant__score_divisor": "1"}
    assert client.post(reverse("league:event_create"), data).status_code == 302
    assert Event.objects.get(name="Typed").variant["score_divisor"] == 1
