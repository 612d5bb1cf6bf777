"""The Content Security Policy in Chromium: an injected inline script does not run, and the pages
people use break none of its rules - signing up, the home page, the lobby's create form, a move
at the table over its WebSocket, Swagger UI at /api/docs/, the browsable API and the admin's
log-in. Every `securitypolicyviolation` event and every console error is collected and must
stay empty."""

from __future__ import annotations

import pytest

from tests.browser.play import take_turn, wait_ready, watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Installed by the browser before any page script (not subject to the page's policy); the
# binding it calls survives navigations, so a violation on any page is kept.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) => {
  window.reportViolation(`${location.pathname}: ${e.violatedDirective} ${e.blockedURI} ` +
    `(${e.sourceFile}:${e.lineNumber})`);
});
"""
# What injected markup would try: an inline script and an inline handler. (eval cannot be tried
# from here: code the test evaluates through DevTools is not held to the page's policy.)
INJECT = """() => {
  const script = document.createElement("script");
  script.textContent = "window.injected = 'inline script';";
  document.body.append(script);
  const img = document.createElement("img");
  img.setAttribute("onerror", "window.injected = 'inline handler'");
  img.src = "/no-such-image.png";
  document.body.append(img);
  return new Promise((done) => setTimeout(() => done(window.injected || null), 300));
}"""


def test_pages_run_under_the_policy_without_a_single_violation(server, desktop):
    page = desktop
    violations: list[str] = []
    page.expose_function("reportViolation", lambda text: violations.append(text))
    page.add_init_script(REPORT_VIOLATIONS)
    errors = watch_errors(page)

    # The policy is enforced: nothing injected runs, and the browser says why.
    page.goto(f"{server.url}/")
    assert page.evaluate(INJECT) is None
    assert {v.split(" ")[1] for v in violations} >= {"script-src-elem", "script-src-attr"}
    violations.clear()
    errors.clear()  # the refusals' console lines, and the missing image's 404

    # allauth's pages: log-in, then sign up (its form posts to 'self') and land logged in.
    page.goto(f"{server.url}/accounts/login/")
    page.wait_for_selector("input[name=login]")
    page.goto(f"{server.url}/accounts/signup/")
    page.fill("input[name=username]", "Cecilia")
    page.fill("input[name=password1]", "a long pass phrase")
    page.fill("input[name=password2]", "a long pass phrase")
    page.click("form button[type=submit]")
    page.wait_for_selector("header a.who")

    # The lobby's create form (static/js/lobby.js): the seat summary follows the game chosen.
    page.goto(f"{server.url}/play/")
    summary = page.locator("#seat-summary")
    page.select_option("#create-form select[name=game]", "mediatore")
    four = summary.inner_text()
    page.select_option("#create-form select[name=game]", "three_five_eight")
    assert summary.inner_text() != four

    # The table: its socket connects (connect-src) and a move goes through.
    created = server.create_table("three_five_eight", "ana,Bot Bianca,Bot Bruno", 2, seed=5)
    token = created["seats"][0]["token"]
    page.goto(f"{server.url}/tables/{created['table']}/?token={token}")
    before = wait_ready(page)
    take_turn(page)
    assert page.evaluate("() => window.medianaTable.state().seq") > before["seq"]

    # Swagger UI (drf-spectacular's sidecar): its script file runs and it draws the operations.
    page.goto(f"{server.url}/api/docs/")
    page.locator(".swagger-ui .opblock").first.wait_for()

    # DRF's browsable API, its syntax colours included.
    page.goto(f"{server.url}/api/")
    page.wait_for_selector(".response-info")

    page.goto(f"{server.url}/admin/login/")
    page.wait_for_selector("#login-form")

    assert violations == []
    assert errors == []
