"""In a real browser: sign in, create a game, choose a card and place a pawn by clicking the map.

Playwright drives Debian's chromium; the app runs on SQLite in a real HTTP server
(browser_support.py).  The screenshot is saved under artifacts/.
"""
from __future__ import annotations

from playwright.sync_api import TimeoutError as PageTimeout
from sqlalchemy import select

from browser_support import ARTIFACTS, browser, page, served, server, sideways_scroll, sign_in  # noqa: F401 (fixtures)


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


def _pick_on_map(page, target: str, select: str, tap: bool = False) -> None:
    """Click (or tap) inside territory `target` until the form's `select` holds it: the page
    may still settle (its deferred scripts, or a reload when the live stream reports a change
    made just after it was drawn), which a single click can miss."""
    for _ in range(4):
        page.wait_for_load_state()
        point = page.evaluate(_POINT_IN, target)
        assert point, f"no clickable point inside territory {target}"
        (page.touchscreen.tap if tap else page.mouse.click)(*point)
        try:
            page.wait_for_function("([s, t]) => document.querySelector(s)?.value === t", arg=[select, target],
                                   timeout=5_000)
            return
        except PageTimeout:  # the page moved under the click
            continue
    assert page.input_value(select) == target


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
    # game.js is deferred: wait until it has run (it shows the map controls), not for a fixed time.
    page.wait_for_selector(".map-targets", state="visible")

    target = page.get_attribute("#board [data-territory]", "data-territory")
    _pick_on_map(page, target, "form.decision[data-kind=turn] select[name=place]")

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "browser-place-pawn-before.png"), full_page=True)
    page.click("form.decision[data-kind=turn] button[type=submit]")
    page.wait_for_selector(f"text=Applied: place {target}")
    page.screenshot(path=str(ARTIFACTS / "browser-place-pawn.png"), full_page=True)
    assert "placed a pawn in" in page.inner_text(".history")



def test_a_page_shows_the_other_players_move_without_a_reload_or_a_poll(served, browser):
    """Two players in two browsers: each one's move reaches the other's open page through its
    event stream (the fallback poll is off), at desktop size and at 360 px, where nothing
    scrolls sideways."""
    app, server = served
    app.config["PBEM_PAGE_POLL"] = 0  # the fallback poll off: only the event stream can tell the page
    from pbem.extensions import db
    from pbem.services import lobby
    from service_helpers import make_game, make_user
    with app.app_context():
        ana, bo = make_user(db.session(), "ana@example.com", "Ana"), make_user(db.session(), "bo@example.com", "Bo")
        game = make_game(db.session(), ana, game="duel", players=2, bots=(), invites=["bo@example.com"], seed=3)
        lobby.join_game(db.session(), game.id, bo)
        game_url = f"{server}/games/{game.id}"
    ana_page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    bo_page = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    for page, address in ((ana_page, "ana@example.com"), (bo_page, "bo@example.com")):
        page.set_default_timeout(30_000)  # generous: a loaded machine, not a timing
        sign_in(page, server, address)
        page.goto(game_url)
        page.wait_for_selector("form.decision[data-kind=bid]")
    assert ana_page.get_attribute("meta[name=pbem-live]", "data-poll-seconds") == "0"
    ana_page.evaluate("window.notReloaded = true")

    bo_page.fill("form.decision[data-kind=bid] textarea[name=orders]", "bid 1")
    bo_page.click("form.decision[data-kind=bid] button[type=submit]")
    bo_page.wait_for_selector("text=Accepted, waiting: bid 1")
    ana_page.wait_for_selector("text=Orders in: Bo")  # pushed: Ana did nothing
    assert ana_page.evaluate("window.notReloaded === undefined")  # the page was drawn anew

    bo_page.evaluate("window.notReloaded = true")
    ana_page.fill("form.decision[data-kind=bid] textarea[name=orders]", "bid 2")
    ana_page.click("form.decision[data-kind=bid] button[type=submit]")
    bo_page.wait_for_selector("text=/picking/i")  # the next phase, pushed to Bo's page
    assert bo_page.evaluate("window.notReloaded === undefined")

    # Press written in one browser appears on the other's open page.
    bo_page.evaluate("window.notReloaded = true")
    ana_page.fill("form.press-send textarea[name=text]", "Good luck, <b>Bo</b>!")
    ana_page.click("form.press-send button[type=submit]")
    bo_page.wait_for_selector("#press .press-text:has-text('Good luck, <b>Bo</b>!')")
    assert bo_page.evaluate("window.notReloaded === undefined")
    assert bo_page.locator("#press b").count() == 0  # shown as text, never as markup
    ana_page.goto(f"{server}/")  # the lobby follows too: a game Bo creates appears
    ana_page.wait_for_selector("meta[name=pbem-live]", state="attached")
    ana_page.evaluate("window.notReloaded = true")
    with app.app_context():
        from pbem.models import User
        creator = db.session.scalar(select(User).where(User.display_name == "Bo"))
        make_game(db.session(), creator, game="duel", players=2, bots=(), title="Bo's open table", seed=4)
    ana_page.wait_for_selector("text=Bo's open table")
    assert ana_page.evaluate("window.notReloaded === undefined")
    ARTIFACTS.mkdir(exist_ok=True)
    bo_page.screenshot(path=str(ARTIFACTS / "browser-live-phone.png"), full_page=True)
    wide = bo_page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
        .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 8)""")
    assert sideways_scroll(bo_page) == 0, f"the page scrolls sideways at 360 px: {wide}"


def test_at_phone_size_the_map_zooms_and_pans_and_the_forms_are_reachable(served, browser):
    """360 px wide: the page never scrolls sideways, the board pans inside its box and zooms by
    its buttons, a territory is still chosen by a tap, and the decision forms can be sent."""
    app, server = served
    from pbem.extensions import db
    from service_helpers import make_game, make_user
    with app.app_context():
        ana = make_user(db.session(), "ana@example.com", "Ana")
        game_url = f"{server}/games/{make_game(db.session(), ana, seed=5).id}"
    page = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True).new_page()
    page.set_default_timeout(30_000)
    sign_in(page, server, "ana@example.com")
    page.goto(game_url)
    page.wait_for_selector("form.decision[data-kind=power]")
    assert sideways_scroll(page) == 0, "the page scrolls sideways at 360 px"
    box = "document.getElementById('board')"
    widths = f"[{box}.clientWidth, {box}.querySelector('svg').getBoundingClientRect().width, {box}.scrollWidth]"
    shown, drawn, scrolled = page.evaluate(widths)
    assert drawn >= 1.9 * shown and scrolled > shown  # drawn larger than the screen: it pans
    page.click(".zoom .zoom-in")
    assert page.evaluate(widths)[1] > drawn * 1.4
    for _ in range(4):
        page.click(".zoom .zoom-out")
    shown, drawn, _ = page.evaluate(widths)
    assert abs(drawn - shown) <= 2  # all of it in view at the smallest
    assert sideways_scroll(page) == 0

    page.locator("form.decision[data-kind=power] input[name=card]").first.check()  # none is preselected
    page.click("form.decision[data-kind=power] button[type=submit]")
    page.wait_for_selector("form.decision[data-kind=turn]")
    page.click(".zoom .zoom-in")
    target = page.get_attribute("#board [data-territory]", "data-territory")
    _pick_on_map(page, target, "form.decision[data-kind=turn] select[name=place]", tap=True)
    page.click("form.decision[data-kind=turn] button[type=submit]")
    page.wait_for_selector(f"text=Applied: place {target}")
    assert sideways_scroll(page) == 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "browser-phone-map.png"), full_page=True)


def test_every_page_fits_a_phone(served, browser):
    """Issue 17: every page usable at 360 px wide: none scrolls sideways, signed in or not."""
    app, server = served
    from pbem.extensions import db
    from pbem.leagues import members, rounds
    from pbem.leagues.league import NewLeague, create_league
    from pbem.models import now
    from service_helpers import make_game, make_user
    with app.app_context():
        session = db.session()
        ana = make_user(session, "ana@example.com", "Ana Long-Named Player of the Valley")
        games = [make_game(session, ana, seed=5, title="A game with a rather long title for a phone"),
                 make_game(session, ana, game="coatl", players=2, bots=("heuristic",), seed=3),
                 make_game(session, ana, game="duel", players=2, bots=("random",), seed=3)]
        league = create_league(session, ana, NewLeague(name="Winter league", game="duel", table_size=2, rounds=2))
        for i in range(4):
            members.add_bot_entrant(session, league.id, ana, f"Bot {i}", "random", now())
        rounds.start_round(session, league.id, ana, now())
        pages = ["/", "/games/new", "/games/new?game=coatl", "/games/new?game=duel", "/profile", "/rules",
                 "/rules/aztlan", "/rules/coatl", "/rules/duel", "/leagues", "/leagues/new", f"/leagues/{league.id}",
                 f"/leagues/{league.id}/standings", "/api/docs", "/dev/outbox"]
        pages += [f"/games/{game.id}" for game in games] + [f"/games/{games[0].id}/replay"]
    page = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{server}/signin")
    assert sideways_scroll(page) == 0, "/signin"
    sign_in(page, server, "ana@example.com")
    wide = {}
    for path in pages:
        page.goto(f"{server}{path}")
        page.wait_for_load_state("load")
        if sideways_scroll(page):
            wide[path] = page.evaluate("""() => [...document.querySelectorAll('body *')]
                .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
                .map(e => e.tagName + '.' + e.className).slice(0, 4)""")
    assert not wide, f"pages that scroll sideways at 360 px: {wide}"


# The territories the board outlines, in id order.
_OUTLINED = """() => [...document.querySelectorAll('#board [data-highlight]')]
  .map(e => Number(e.getAttribute('data-highlight'))).sort((a, b) => a - b)"""


def _turn_with_a_move(app):
    """A game where Ana owes a development turn with pawns of hers on the board to move,
    reached by playing her earlier decisions through the service as a person would."""
    from pbem.extensions import db
    from pbem.models import Game
    from pbem.services import play
    from service_helpers import make_game, make_user, owed
    from test_forced_answers import person_answer
    with app.app_context():
        session = db.session()
        ana = make_user(session, "ana@example.com", "Ana")
        game = make_game(session, ana, seed=5)
        for _ in range(40):
            decision = owed(session, game, ana)
            if decision["kind"] == "turn" and decision["options"]["move_from"]:
                return game.id, decision["options"]
            play.submit_for_user(session, game.id, ana, person_answer(session, session.get(Game, game.id), ana),
                                 channel="api")
    raise AssertionError("Ana never had a pawn to move")


def test_the_map_outlines_only_the_legal_territories_of_the_choice_being_made(served, browser):
    """Issue 17, "legal options only": on a development turn the map outlines the territories a
    move may leave (the API's move_from); once one is chosen, only the territories a pawn from
    it may enter (the API's move_to for it), which are also the only ones the "to" list offers
    and a map click can pick; the territory a pawn is placed in becomes an origin too.  At
    desktop size and at 360 px."""
    app, server = served
    game_id, options = _turn_with_a_move(app)
    origin = max(options["move_from"], key=lambda t: len(options["move_to"][str(t)]))
    destinations = options["move_to"][str(origin)]
    elsewhere = next(t for t in options["place"] if t not in destinations and t not in options["move_from"])
    for width, height in ((1280, 900), (360, 740)):
        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
        page.set_default_timeout(30_000)
        sign_in(page, server, "ana@example.com")
        page.goto(f"{server}/games/{game_id}")
        form = "form.decision[data-kind=turn]"
        page.wait_for_selector(form)
        assert page.evaluate(_OUTLINED) == sorted(options["move_from"]), width

        page.select_option(f"{form} select[name=move_from]", str(origin))
        assert page.evaluate(_OUTLINED) == sorted(destinations), width
        offered = page.eval_on_selector_all(f"{form} select[name=move_to] option", "os => os.map(o => o.value)")
        assert offered == ["", *map(str, destinations)], width
        assert page.is_checked(f"{form} input[name=map_target][value=move_to]"), "the map picks the destination next"
        for territory, chosen in ((elsewhere, ""), (destinations[0], str(destinations[0]))):
            page.mouse.click(*page.evaluate(_POINT_IN, str(territory)))
            assert page.input_value(f"{form} select[name=move_to]") == chosen, (width, territory)
        assert sideways_scroll(page) == 0
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"browser-move-destinations-{width}.png"))

        page.select_option(f"{form} select[name=move_from]", "")
        assert page.evaluate(_OUTLINED) == sorted(options["move_from"]), width

        # The pawn placed this turn may move on: its territory becomes an origin.
        page.select_option(f"{form} select[name=place]", str(elsewhere))
        origins = sorted([*options["move_from"], elsewhere])
        offered = page.eval_on_selector_all(f"{form} select[name=move_from] option", "os => os.map(o => o.value)")
        assert offered == ["", *map(str, origins)], width
        assert page.evaluate(_OUTLINED) == origins, width
        page.select_option(f"{form} select[name=move_from]", str(elsewhere))
        assert page.evaluate(_OUTLINED) == options["move_to"][str(elsewhere)], width
        page.context.close()
