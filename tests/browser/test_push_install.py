"""The installable site and its push notices in Chromium at phone size: the manifest and its
icons are served, the service worker registers with the whole site as its scope, and the
notice settings page turns push on only on a click (the notifications permission is granted in
the context). A push delivered to the service worker (DevTools' `deliverPushMessage`, as the push
service would) is shown as a notification with the notice's title and link.

Headless Chromium has no push service of its own (no Google Cloud Messaging) and shows no
operating system notification: the screenshots are of the settings page, of the page after the
click (it says what the browser answered), and of the site's own notices page with the notice
the push carried."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator

import pytest

from config.vapid import generate_pair
from tests.browser.conftest import PHONE, Server, serve


@pytest.fixture(scope="module")
def push_server(tmp_path_factory) -> Iterator[Server]:
    """A server with a VAPID key (with DATABASE_URL set, as here, none is made by itself)."""
    private, _public = generate_pair()
    before = os.environ.get("VAPID_PRIVATE_KEY")
    os.environ["VAPID_PRIVATE_KEY"] = private
    try:
        with serve(tmp_path_factory.mktemp("push") / "push.sqlite3") as server:
            yield server
    finally:
        if before is None:
            os.environ.pop("VAPID_PRIVATE_KEY", None)
        else:
            os.environ["VAPID_PRIVATE_KEY"] = before


@pytest.fixture
def phone_push(browser, push_server) -> Iterator:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    context.grant_permissions(["notifications"], origin=push_server.url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    yield page
    context.close()


def sign_up(page, url: str, name: str) -> None:
    page.goto(f"{url}/accounts/signup/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password1]", "a long pass phrase")
    page.fill("input[name=password2]", "a long pass phrase")
    page.click("form button[type=submit]")
    page.wait_for_selector("header a.who")


def test_the_site_installs_and_shows_a_pushed_notice(phone_push, push_server, screenshots):
    page, url = phone_push, push_server.url
    sign_up(page, url, "Pia")

    # The manifest, linked from every page, and its icons.
    href = page.get_attribute("link[rel=manifest]", "href")
    manifest = page.request.get(f"{url}{href}")
    assert manifest.ok and manifest.headers["content-type"] == "application/manifest+json"
    data = manifest.json()
    assert data["display"] == "standalone" and data["start_url"] == "/"
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        got = page.request.get(f"{url}{icon['src']}")
        assert got.ok and got.headers["content-type"] == "image/png"
    worker = page.request.get(f"{url}/sw.js")
    assert worker.ok and worker.headers["service-worker-allowed"] == "/"

    # The service worker registers on any page, for the whole site; no permission is asked.
    page.goto(f"{url}/accounts/profile/#notices")
    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope == f"{url}/"
    box = page.locator("#push-settings")
    box.scroll_into_view_if_needed()
    page.locator("#notices").screenshot(path=str(screenshots / "push-settings-phone.png"))

    # The click asks for permission (granted here) and subscribes; headless Chromium has no
    # push service, so the page says what the browser answered, and nothing breaks.
    page.click("[data-push-on]")
    state = page.locator("[data-push-state]")
    page.wait_for_function(
        "() => document.querySelector('[data-push-state]').textContent.trim() !== ''"
    )
    said = state.inner_text()
    assert said
    page.screenshot(path=str(screenshots / "push-after-subscribe-phone.png"), full_page=False)

    # A push as the push service would deliver it: the worker shows the notice, with its link.
    cdp = page.context.new_cdp_session(page)
    registrations: list[dict] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    page.wait_for_timeout(300)
    [registration] = [
        r for r in registrations if r["scopeURL"] == f"{url}/" and not r["isDeleted"]
    ][:1]
    push = {
        "title": "You are in Winter league",
        "body": "A place came free.",
        "url": "/notices/",
        "tag": "notice-1",
    }
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": url, "registrationId": registration["registrationId"], "data": json.dumps(push)},
    )
    # wait_for_function would take the pending promise of an async predicate as truthy and
    # answer null when the worker is slower than the first poll: poll from here instead.
    shown = None
    for _ in range(100):
        shown = page.evaluate(
            """async () => {
                const reg = await navigator.serviceWorker.ready;
                const list = await reg.getNotifications();
                if (!list.length) return null;
                return {title: list[0].title, body: list[0].body, url: list[0].data.url};
            }"""
        )
        if shown:
            break
        page.wait_for_timeout(100)
    assert shown == {"title": push["title"], "body": push["body"], "url": f"{url}/notices/"}

    # The same notice as the site shows it (the bell, the notices page), made by the server.
    push_server.manage(
        "shell",
        "-c",
        "from django.contrib.auth import get_user_model; "
        "from league.services.notifications import notify; "
        "notify([get_user_model().objects.get(username='Pia')], 'moved_up', key='k1', "
        "url='/events/', context={'event': 'Winter league'})",
    )
    page.goto(f"{url}/notices/")
    page.get_by_text("You are in Winter league").first.wait_for()
    page.screenshot(path=str(screenshots / "push-notices-page-phone.png"))
