"""The display preferences (issue #31, "Cards and words of each game's home"): card faces and
move confirmation, stored on the account, set on /accounts/preferences/, linked from the
profile and the header, and put on the table's and the replay's root element."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.gameplay.conftest import make_table, make_users

pytestmark = pytest.mark.django_db


def root(html: str) -> str:
    """The table page's root element (its opening tag)."""
    return re.search(r'<div id="table-app"[^>]*>', html).group(0)


def test_a_visitor_is_sent_to_log_in(client):
    response = client.get(reverse("preferences"))
    assert response.status_code == 302 and "login/?next=" in response["Location"]


def test_the_defaults_are_the_games_home_and_automatic_confirmation():
    (ana,) = make_users("ana")
    assert (ana.card_faces, ana.confirm_moves) == ("home", "auto")


def test_the_page_saves_both_choices_and_says_so(client):
    (ana,) = make_users("ana")
    client.force_login(ana)
    page = client.get(reverse("preferences")).content.decode()
    assert 'value="french"' in page and 'value="on"' in page and 'value="off"' in page
    response = client.post(
        reverse("preferences"), {"card_faces": "french", "confirm_moves": "off"}, follow=True
    )
    assert response.status_code == 200 and "preferences are saved" in response.content.decode()
    ana.refresh_from_db()
    assert (ana.card_faces, ana.confirm_moves) == ("french", "off")


@pytest.mark.parametrize(
    "data", [{"card_faces": "gothic", "confirm_moves": "on"}, {"card_faces": "french"}, {}]
)
def test_a_bad_choice_is_refused_and_changes_nothing(client, data):
    (ana,) = make_users("ana")
    client.force_login(ana)
    response = client.post(reverse("preferences"), data)
    assert response.status_code == 400
    ana.refresh_from_db()
    assert (ana.card_faces, ana.confirm_moves) == ("home", "auto")


def test_the_profile_and_the_header_link_to_the_page(client):
    (ana,) = make_users("ana")
    client.force_login(ana)
    url = reverse("preferences")
    assert f'href="{url}" id="preferences-link"' in client.get(reverse("profile")).content.decode()
    assert f'class="prefs nav-more" href="{url}"' in client.get("/").content.decode()
    client.logout()
    assert f'href="{url}"' not in client.get("/").content.decode()


def test_the_table_page_carries_the_viewers_choices(client):
    ana, ben = make_users("ana", "ben")
    table = make_table("schieberamsch", people=[ana, ben], bots=["Bot"])
    url = reverse("gameplay:table", args=[table.id])
    client.force_login(ana)
    tag = root(client.get(url).content.decode())
    assert 'data-card-faces="home"' in tag and 'data-confirm-moves="auto"' in tag
    ana.card_faces, ana.confirm_moves = "french", "on"
    ana.save()
    tag = root(client.get(url).content.decode())
    assert 'data-card-faces="french"' in tag and 'data-confirm-moves="on"' in tag
    # Another person's choices are theirs alone.
    client.force_login(ben)
    tag = root(client.get(url).content.decode())
    assert 'data-card-faces="home"' in tag and 'data-confirm-moves="auto"' in tag


def test_a_visitor_watching_gets_the_defaults(client):
    (ana,) = make_users("ana")
    table = make_table("saichugen", people=[ana], bots=["Bot A", "Bot B"])
    tag = root(client.get(reverse("gameplay:table", args=[table.id])).content.decode())
    assert 'data-card-faces="home"' in tag and 'data-confirm-moves="auto"' in tag
