"""A form's address opened as a page answers with the site's 405 page (a way back, nothing
changed), never a blank one; the API's 405 stays a plain answer for programs."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

TABLE = "0123456789abcdef"


def test_opening_a_form_address_shows_a_page_with_a_way_back(client):
    url = f"/tables/{TABLE}/claim-timeout/"
    response = client.get(url, HTTP_REFERER=f"http://testserver/tables/{TABLE}/")
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    page = response.content.decode()
    assert 'id="not-allowed"' in page
    assert f'href="/tables/{TABLE}/"' in page


def test_a_referer_from_another_site_is_not_offered_as_the_way_back(client):
    for referer in ("https://evil.example/tables/", "http://testserver//evil.example/x"):
        page = client.get(f"/tables/{TABLE}/claim-timeout/", HTTP_REFERER=referer)
        assert page.status_code == 405
        assert "evil.example" not in page.content.decode()


def test_the_page_is_in_the_readers_language(client):
    page = client.get(f"/tables/{TABLE}/claim-timeout/", HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 405
    assert "Nothing to show here" not in page.content.decode()


def test_the_api_keeps_its_own_405(client):
    response = client.get(f"/api/tables/{TABLE}/claim-timeout/")
    assert response.status_code == 405
    assert 'id="not-allowed"' not in response.content.decode()
