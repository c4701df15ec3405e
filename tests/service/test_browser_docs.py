"""In a real browser: the API docs page runs Swagger UI under the site's Content-Security-Policy
with nothing fetched from elsewhere, and a card's meaning on the game page opens on a tap at
phone width (no hover, no script needed).  Screenshots go under artifacts/."""
from __future__ import annotations

from browser_support import ARTIFACTS, browser, page, served, server, sign_in, sideways_scroll  # noqa: F401 (fixtures)


def test_the_api_docs_page_runs_swagger_ui_from_this_site_only(server, page):
    page.set_default_timeout(20_000)
    requested, refused = [], []
    page.on("request", lambda request: requested.append(request.url))
    page.on("console", lambda message: refused.append(message.text)
            if "Content Security Policy" in message.text else None)
    page.goto(f"{server}/api/docs")
    page.wait_for_selector("#swagger-ui .information-container .title")
    assert "pbem API" in page.inner_text("#swagger-ui .information-container .title")
    page.wait_for_selector("#swagger-ui .opblock")
    assert page.locator("#swagger-ui .opblock").count() >= 10, "every operation of the document is listed"
    assert not refused, refused
    outside = [url for url in requested if not url.startswith(server) and not url.startswith("data:")]
    assert not outside, outside
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "browser-api-docs.png"))


def test_a_cards_meaning_opens_on_a_tap_at_phone_width(server, page):
    page.set_default_timeout(20_000)
    sign_in(page, server, "ana@example.com")
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(f"{server}/games/new")
    page.fill("input[name=title]", "Cards")
    page.select_option("select[name=players]", "2")
    page.select_option("select[name=bots]", "1")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector(".hand details.card-note")
    card = page.locator(".hand details.card-note").first
    meaning = card.locator("p")
    assert not meaning.is_visible()
    card.locator("summary").click()
    assert meaning.is_visible() and meaning.inner_text().startswith("Power 4 per pawn")
    page.goto(f"{server}/rules/aztlan")
    page.wait_for_selector("#scoring svg")
    assert sideways_scroll(page) == 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "browser-rules-phone.png"), full_page=True)
