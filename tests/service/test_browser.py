"""In a real browser: sign in, create a game, choose a card and place a pawn by clicking the map.

Playwright drives Debian's chromium; the app runs on SQLite in a real HTTP server
(browser_support.py).  The screenshot is saved under artifacts/.
"""
from __future__ import annotations

from browser_support import ARTIFACTS, page, served, server, sign_in  # noqa: F401 (fixtures)


# A point inside a territory's shape where a click reaches it (no other territory above).
_POINT_IN = """(id) => {
  const el = document.querySelector(`#board [data-territory="${id}"]`);
  el.scrollIntoView({block: "center"});
  const box = el.getBoundingClientRect();
  for (let i = 1; i < 10; i++) for (let j = 1; j < 10; j++) {
    const x = box.left + box.width * i / 10, y = box.top + box.height * j / 10;
    const top = document.elementsFromPoint(x, y).find(e => e.hasAttribute && e.hasAttribute("data-territory"));
    if (top === el) return [x, y];
  }
  return null;
}"""


def test_sign_in_create_a_game_and_place_a_pawn_by_clicking_the_map(server, page):
    page.set_default_timeout(15_000)
    sign_in(page, server, "ana@example.com")

    page.goto(f"{server}/games/new")
    page.fill("input[name=title]", "Browser game")
    page.select_option("select[name=players]", "3")
    page.select_option("select[name=bots]", "2")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("form.decision[data-kind=power]")

    page.locator("form.decision[data-kind=power] input[name=card]").first.check()  # none is preselected
    page.click("form.decision[data-kind=power] button[type=submit]")
    page.wait_for_selector("form.decision[data-kind=turn]")
    assert page.is_visible(".map-targets"), "the script shows the map controls"

    target = page.get_attribute("#board [data-territory]", "data-territory")
    point = page.evaluate(_POINT_IN, target)
    assert point, f"no clickable point inside territory {target}"
    page.mouse.click(*point)
    assert page.input_value("form.decision[data-kind=turn] select[name=place]") == target

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "browser-place-pawn-before.png"), full_page=True)
    page.click("form.decision[data-kind=turn] button[type=submit]")
    page.wait_for_selector(f"text=Applied: place {target}")
    page.screenshot(path=str(ARTIFACTS / "browser-place-pawn.png"), full_page=True)
    assert "placed a pawn in" in page.inner_text(".history")
