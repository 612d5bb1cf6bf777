"""How a page's language is chosen (docs/translations.md): the logged-in player's profile, else
the switcher's cookie or the browser's Accept-Language, else English; the switcher remembers the
choice; `<html lang>` says it; the browser client gets its catalogue at /i18n/js/."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.gameplay.conftest import make_table, quick_tables, token  # noqa: F401

pytestmark = pytest.mark.django_db

# The header's "Events" and "Play" (templates/base.html) as the translators wrote them.
EVENTS = {"en": "Events", "de": "Veranstaltungen", "it": "Eventi", "ja": "大会"}
PLAY = {"en": "Play", "de": "Spielen", "it": "Gioca", "ja": "プレイ"}


def html_lang(response) -> str:
    return re.search(r'<html lang="([^"]*)">', response.content.decode()).group(1)


def nav(response) -> str:
    page = response.content.decode()
    return page[page.index("<nav>") : page.index("</nav>")]


@pytest.fixture
def bob(db):
    # English, whatever MEDIANA_TEST_LANGUAGE makes the default of new accounts.
    return get_user_model().objects.create_user("bob", password="pw", language="en")


def test_without_a_choice_the_site_is_english(client):
    # No Accept-Language (empty is the same to Django), even under MEDIANA_TEST_LANGUAGE.
    response = client.get("/events/", HTTP_ACCEPT_LANGUAGE="")
    assert html_lang(response) == "en"
    assert f">{EVENTS['en']}</a>" in nav(response)
    assert response["Content-Language"] == "en"


@pytest.mark.parametrize("language", ["de", "it", "ja"])
def test_the_browsers_accept_language_chooses_for_a_visitor(client, language):
    response = client.get("/events/", HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5")
    assert html_lang(response) == language
    header = nav(response)
    assert f">{EVENTS[language]}</a>" in header and f">{PLAY[language]}</a>" in header
    assert "Accept-Language" in response["Vary"]


def test_a_language_the_site_lacks_falls_back_to_english(client):
    response = client.get("/events/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    assert html_lang(response) == "en"


def test_the_profile_language_wins_over_the_browser(client, bob):
    bob.language = "it"
    bob.save()
    client.force_login(bob)
    response = client.get("/events/", HTTP_ACCEPT_LANGUAGE="de")
    assert html_lang(response) == "it"
    assert f">{EVENTS['it']}</a>" in nav(response)


def test_the_switcher_is_a_form_that_works_without_javascript(client):
    header = nav(client.get("/events/?token=secret", HTTP_ACCEPT_LANGUAGE="de"))
    form = header[header.index('<form method="post" action="/i18n/setlang/"') :]
    assert 'name="csrfmiddlewaretoken"' in form
    assert "secret" not in form  # no `next`: the way back is the Referer, query included
    # Each language in its own words, the current one chosen.
    for code, name in settings.LANGUAGES:
        assert f'value="{code}" lang="{code}"' in form and f">{name}</option>" in form
    assert '<option value="de" lang="de" selected>' in form
    assert '<input type="submit"' in form


def test_the_switcher_goes_back_to_the_page_it_was_used_on(client):
    page = "/events/?token=abc"
    response = client.post(reverse("set_language"), {"language": "it"}, HTTP_REFERER=page)
    assert response.status_code == 302 and response["Location"] == page


def test_the_switcher_remembers_a_visitors_choice_in_a_cookie(client):
    response = client.post(reverse("set_language"), {"language": "ja", "next": "/events/"})
    assert response.status_code == 302 and response["Location"] == "/events/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ja"
    # The cookie outweighs the browser's Accept-Language from now on.
    response = client.get("/events/", HTTP_ACCEPT_LANGUAGE="de")
    assert html_lang(response) == "ja"
    assert f">{EVENTS['ja']}</a>" in nav(response)


def test_the_switcher_saves_a_logged_in_players_profile_language(client, bob):
    client.force_login(bob)
    response = client.post(reverse("set_language"), {"language": "de", "next": "/events/"})
    assert response.status_code == 302
    assert get_user_model().objects.get(pk=bob.pk).language == "de"
    # The account carries the choice to another browser (no cookie there).
    other = type(client)()
    other.force_login(bob)
    assert html_lang(other.get("/events/", HTTP_ACCEPT_LANGUAGE="it")) == "de"


def test_the_switcher_refuses_a_language_not_offered_and_changes_nothing(client, bob):
    client.force_login(bob)
    response = client.post(reverse("set_language"), {"language": "xx", "next": "/events/"})
    assert response.status_code == 400
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
    assert get_user_model().objects.get(pk=bob.pk).language == "en"
    assert client.get(reverse("set_language")).status_code == 405  # a POST form only


def test_the_switcher_goes_back_only_to_pages_of_this_site(client):
    response = client.post(
        reverse("set_language"), {"language": "it", "next": "https://elsewhere.example/"}
    )
    assert response.status_code == 302 and response["Location"] == "/"


def test_a_new_account_keeps_the_language_it_signed_up_in(client):
    data = {"username": "greta", "password1": "a long pass phrase"}
    data["password2"] = data["password1"]
    response = client.post("/accounts/signup/", data, HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    assert response.status_code == 302
    assert get_user_model().objects.get(username="greta").language == "de"


def test_the_javascript_catalogue_is_served_in_the_pages_language(client):
    url = reverse("javascript-catalog")
    assert url == "/i18n/js/"  # a stable address: the table and replay pages load it
    for language, text in [
        ("de", "Du bist dran: Spiel eine Karte."),
        ("ja", "あなたの番です: カードを出してください。"),
    ]:
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/javascript")
        assert json.dumps(text) in response.content.decode()
    # The protocol's reason codes are worded in the catalogue (Italian suits stay Italian).
    italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert json.dumps("Devi rispondere al seme: %(suit)s.") in italian
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="").content.decode()  # no choice: English
    assert "Du bist dran" not in english


@pytest.mark.django_db(transaction=True)
def test_the_table_page_loads_the_catalogue_before_the_client(client):
    ana = get_user_model().objects.create_user("ana", password="pw")
    table = make_table("schieberamsch", [ana], ["bot1", "bot2"])
    page = client.get(f"/tables/{table.id}/?token={token(table, 0)}", HTTP_ACCEPT_LANGUAGE="ja")
    html = page.content.decode()
    assert html_lang(page) == "ja"
    assert html.index('src="/i18n/js/"') < html.index("/static/js/table.js")
