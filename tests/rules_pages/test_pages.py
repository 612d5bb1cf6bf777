"""The "How to play" pages: one per registered game with every variant flag and its options
explained, a 404 for any other name, a list of the games, text that is all translatable, a fixed
(tiny) number of queries; and the links to them from the table, the lobby, the invitation, the
home page and the events of each game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template import TemplateDoesNotExist
from django.template.loader import get_template

from gameplay import api
from gameplay.rules_views import rules_template
from gameplay.services import lobby
from games import catalogue, registry
from league.services import events as event_services
from tests.gameplay.conftest import make_table, make_users, token
from tests.home.page import Node, parse
from tests.language import active, pattern, text, words

GAMES = registry.game_names()
TEMPLATES = Path(__file__).resolve().parents[2] / "gameplay" / "templates"


def rules_url(game: str) -> str:
    return f"/games/{game}/"


def flag_entries(page: Node) -> dict[str, tuple[Node, Node]]:
    """The flags list of a rules page: flag name → (its <dt>, the <dd> after it)."""
    flags = page.find(tag="dl", **{"class": "flags"})
    assert flags is not None, "no variants list"
    out: dict[str, tuple[Node, Node]] = {}
    items = [c for c in flags.children if isinstance(c, Node)]
    for dt, dd in zip(items[::2], items[1::2], strict=True):
        assert (dt.tag, dd.tag) == ("dt", "dd")
        out[dt.attrs["id"].removeprefix("flag-")] = (dt, dd)
    return out


def goal(message: str) -> str:
    """A game's goal as its pages show it: translated, its white space as HTML renders it."""
    return " ".join(text(message).split())


def codes(node: Node) -> set[str]:
    return {c.text for c in node.find_all("code")}


# ---------------------------------------------------------------- the pages


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_page_with_its_goal_and_every_flag_and_option_explained(client, game):
    spec = registry.get_game(game)
    response = client.get(rules_url(game))
    assert response.status_code == 200
    page = parse(response.content)
    assert text("How to play %(game)s", game=spec.display_name) in page.find(tag="h1").text
    assert page.find(id="goal").text.endswith(goal(spec.goal))
    assert page.find(id="scoring") is not None and page.find(id="worked-example") is not None

    entries = flag_entries(page)
    assert set(entries) == {f.name for f in spec.flags}, "every flag of the schema, nothing else"
    for flag, schema in zip(spec.flags, spec.variant_schema(), strict=True):
        dt, dd = entries[flag.name]
        assert flag.name in codes(dt)
        # Named and its default told as the lobby's form names them (the schema's labels).
        assert text(schema["label"]) in dt.text
        with active():
            default = api.value_label(schema, flag.default)
        assert text("default: %(value)s", value=default) in dt.text
        assert words(dd.text) >= 8, f"{flag.name}: no explanation"
        if flag.kind == "choice":
            # Each option named (its key, and the label the lobby's form shows) and described.
            assert {str(c) for c in flag.choices} <= codes(dd), flag.name
            for choice in flag.choices:
                with active():
                    label = api.value_label(schema, choice)
                assert label in dd.text, (flag.name, choice)
        if flag.kind == "int":  # its range ("from 1 to 12" in a longer sentence)
            bounds = rf"(?<!\d){flag.min}(?!\d).*(?<!\d){flag.max}(?!\d)"
            assert re.search(bounds, dd.text), flag.name


@pytest.mark.parametrize("game", GAMES)
def test_the_examples_show_cards_as_the_table_draws_them(client, game):
    page = parse(client.get(rules_url(game)).content)
    card_name = pattern("%(rank)s of %(suit)s")
    faces = [n for n in page.walk() if n.tag == "span" and "pc" in n.attrs.get("class", "").split()]
    assert len(faces) >= 5
    for face in faces:
        if "back" in face.attrs["class"]:
            continue
        assert re.fullmatch(r"pc suit-[SHDCdcsb]( won)?", face.attrs["class"]), face.attrs
        assert face.find(**{"class": "rank"}) and face.find(**{"class": "pip"})
        assert card_name.fullmatch(face.attrs["title"])  # "7 of hearts": its name on hover


@pytest.mark.parametrize("path", ["/games/chess/", "/games/SAICHUGEN/", "/games/saichugen_/"])
def test_a_game_the_registry_does_not_know_is_a_404(client, path):
    assert client.get(path).status_code == 404


def test_the_page_answers_only_get(client):
    assert client.post(rules_url("saichugen")).status_code == 405


def test_the_list_of_games_links_every_rules_page_with_its_goal(client):
    response = client.get("/rules/")
    assert response.status_code == 200
    page = parse(response.content)
    listed = page.find(id="rules-list")
    for spec in registry.games():
        item = listed.find(**{"data-game": spec.name})
        assert rules_url(spec.name) in item.links
        assert goal(spec.goal) in item.text
    # Each rules page links its neighbours and the list.
    links = parse(client.get(rules_url("mediatore")).content).links
    assert "/rules/" in links
    assert {rules_url(g) for g in GAMES if g != "mediatore"} <= set(links)


@pytest.mark.django_db
def test_the_pages_read_no_table(client, django_assert_num_queries, django_assert_max_num_queries):
    with django_assert_num_queries(0):
        assert client.get(rules_url("schieberamsch")).status_code == 200
        assert client.get("/rules/").status_code == 200
    client.force_login(make_users("ana")[0])
    # The header's: the session, its user and the user's unread notices.
    with django_assert_max_num_queries(3):
        assert client.get(rules_url("mediatore")).status_code == 200


# Outside {% translate %} / {% blocktranslate %} a rules page may hold only markup, cards, code
# names (<code>, <dt> of a contract), figures and punctuation: every sentence is translatable.
TEMPLATE_TAG = re.compile(r"{%.*?%}|{{.*?}}|{#.*?#}", re.S)
BLOCKS = re.compile(r"{%\s*blocktranslate.*?%}.*?{%\s*endblocktranslate\s*%}", re.S)
COMMENTS = re.compile(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}", re.S)
NAMES = re.compile(r"<(code|dt|td)>[^<]*</\1>")
CLASS_BLOCK = re.compile(r"{%\s*block main_class\s*%}.*?{%\s*endblock\s*%}")
BRAND = "Mediana"


def rules_source(name: str) -> Path:
    """A shared rules template (`_page`, `_flag`, `index`) or a game's own rules page."""
    if name in GAMES:
        return registry.get_game(name).site_dir / "rules.html"
    return TEMPLATES / "gameplay" / "rules" / f"{name}.html"


@pytest.mark.parametrize("name", ["_page", "_flag", "index", *GAMES])
def test_every_sentence_of_a_rules_page_is_marked_for_translation(name):
    source = rules_source(name).read_text()
    text = CLASS_BLOCK.sub(" ", COMMENTS.sub(" ", source)).replace(BRAND, " ")
    text = BLOCKS.sub(" ", text)
    text = TEMPLATE_TAG.sub(" ", text)
    text = NAMES.sub(" ", text)
    text = re.sub(r"<[^>]+>", " ", text)
    words = re.findall(r"[A-Za-z]{3,}", text)
    assert words == [], f"{name}.html: text outside translation blocks: {words[:12]}"


def test_the_template_is_found_by_the_games_registered_name():
    """In the game's own package (games/<game>/site/rules.html), by the loader of
    gameplay/game_site.py; a name no game has is not found."""
    for game in GAMES:
        origin = get_template(rules_template(game)).origin
        assert Path(origin.name) == registry.get_game(game).site_dir / "rules.html"
    with pytest.raises(TemplateDoesNotExist):
        get_template(rules_template("no_such_game"))
    with pytest.raises(TemplateDoesNotExist):
        get_template(f"games/{GAMES[0]}/../../registry.py")


# ---------------------------------------------------------------- the links to them


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", GAMES)
def test_the_table_page_shows_the_goal_and_links_the_rules(client, game):
    ana = make_users("ana")[0]
    table = make_table(game, [ana], [f"bot{i}" for i in range(1, catalogue.game(game).seats)])
    page = parse(client.get(f"/tables/{table.id}/?token={token(table, 0)}").content)
    head = page.find(tag="header", **{"class": "tbl-head"})
    line = head.find(id="goal")
    assert goal(registry.get_game(game).goal) in line.text
    assert rules_url(game) in line.links


@pytest.mark.django_db
def test_the_lobby_shows_every_games_goal_and_links_its_rules(client):
    for who in (None, make_users("ana")[0]):
        if who:
            client.force_login(who)
        page = parse(client.get("/play/").content)
        quick = page.find(id="quick-play")
        for spec in registry.games():
            item = quick.find(**{"data-game": spec.name})
            assert goal(spec.goal) in item.text
            assert rules_url(spec.name) in item.links
    # The create form's rules of each game say what they mean.
    form = parse(client.get("/play/").content).find(id="create-form")
    for spec in registry.games():
        group = form.find(tag="fieldset", **{"data-game": spec.name})
        assert f"{rules_url(spec.name)}#variants" in group.links


@pytest.mark.django_db(transaction=True)
def test_the_invitation_and_the_waiting_table_link_the_rules(client):
    ana, ben = make_users("ana", "ben")
    table = lobby.create_friendly(ana, game="schieberamsch", bots=1).table
    client.force_login(ben)
    invitation = parse(client.get(f"/tables/{table.id}/join/").content)
    assert rules_url("schieberamsch") in invitation.links
    client.force_login(ana)
    waiting = parse(client.get(f"/tables/{table.id}/").content)
    assert rules_url("schieberamsch") in waiting.links


@pytest.mark.django_db
def test_the_home_pages_game_cards_link_their_rules(client):
    page = parse(client.get("/").content)
    for spec in registry.games():
        card = page.find(tag="article", **{"data-game": spec.name, "class": "card game-card"})
        assert rules_url(spec.name) in card.links


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_an_event_page_links_the_rules_of_its_game(client, alice, game):
    event = event_services.create_event(
        alice, name=f"Cup {game}", game=game, rounds=2, deals_per_match=1, format="swiss"
    )
    event_services.publish_event(event, by=alice)
    page = parse(client.get(f"/events/{event.slug}/").content)
    assert page.find(id="rules-link").attrs["href"] == rules_url(game)
