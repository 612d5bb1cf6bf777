import pytest
from playwright.sync_api import sync_playwright
from league.services import rounds as round_services
from league.services.results import record_result
from tests.league.conftest import record_for

pytestmark = pytest.mark.django_db(transaction=True)

def test_shot(make_event, alice, live_server):
    event = make_event("saichugen", players=10, format="knockout", rounds=3)
    r = round_services.generate_round(event, by=alice)
    round_services.publish_round(r, by=alice)
    fx = list(r.fixtures.order_by("number"))
    record_result(fx[0], by=alice, sheet={"deals": [{"scores": [20, 20, 20]}]})
    for f in fx[1:]:
        record_result(f, by=alice, record=record_for(f))
    sw = make_event("three_five_eight", players=9, format="swiss", rounds=2)
    r2 = round_services.generate_round(sw, by=alice)
    round_services.publish_round(r2, by=alice)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = b.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{live_server.url}/events/{event.slug}/rounds/1/")
        page.screenshot(path="/tmp/shots_formats/knockout_round1.png", full_page=True)
        page.goto(f"{live_server.url}/events/{sw.slug}/rounds/1/")
        page.click("summary")
        page.screenshot(path="/tmp/shots_formats/swiss_round1.png", full_page=True)
        page.goto(f"{live_server.url}/events/{event.slug}/standings/")
        page.screenshot(path="/tmp/shots_formats/knockout_standings.png", full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{live_server.url}/events/{event.slug}/rounds/1/")
        page.screenshot(path="/tmp/shots_formats/knockout_round1_phone.png", full_page=True)
        b.close()
