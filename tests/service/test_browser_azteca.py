"""In a real browser, a whole game turn of Azteca through the web forms: Ana plays one of four
seats against three heuristic bots, from the setup to the start of turn 2, by clicks and
picks only (territories on the map, boxes, selects and buttons); the page also fits a 360 px
phone at every kind of form, and a card in her hand explains itself on a tap.

What Ana plays is what the heuristic bot would play in her seat; each of its orders is entered
through the form as a person would (tests/games/azteca_form_fields.py), and the page must
answer with that very order ("Applied:", or "Accepted, waiting:" for a secret answer the
others still owe).  Once, a card the form offers is played beside an answer.  The app
advances inline (PBEM_ADVANCE=inline, as in test_browser.py): the request that carries Ana's
order also plays the bots' turns.  Playwright drives Debian's chromium (browser_support.py);
screenshots are saved under artifacts/.
"""
from __future__ import annotations

from typing import Any

from browser_support import (ARTIFACTS, answer_shown, browser, open_new_game, page, served, server,  # noqa: F401
                             sideways_scroll, sign_in)
from engine.azteca import GAME
from pbem.extensions import db
from pbem.models import Game
from pbem.services import accounts, lobby
from pbem.services.state import game_state
from tests.games.azteca_form_fields import form_fields

SEED = 5
ADDRESS = "ana@example.com"
FORM = "form.decision"
ON_THE_MAP = {"shore", "territory", "to"}  # fields filled by a click on the map
OUTLINED = """() => [...document.querySelectorAll('#board [data-highlight]')]
  .map(e => e.getAttribute('data-highlight')).sort()"""


def start_game(app: Any, base: str) -> int:
    """Ana's seeded four-player game against three heuristic bots."""
    with app.app_context():
        ana = accounts.owner_of(db.session(), ADDRESS)
        game = lobby.create_game(db.session(), ana, lobby.NewGame(
            title="Azteca in a browser", game="azteca", players=4, bots=("heuristic",) * 3, seed=SEED),
            base_url=base)
        return game.id


def ana_to_play(app: Any, game_id: int) -> tuple[Any, int] | None:
    """The state and Ana's seat index when she owes a decision of turn 1; None once turn 2 has
    begun (or the game is over)."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        state = game_state(db.session(), game)
        ana = next(seat.name for seat in game.seats if seat.user_id is not None)
        if state.is_over() or state.round > 1:
            return None
        s = state.seats.index(ana)
        assert s in state.waiting(), "the bots' turns are played inline, before the page comes back"
        return state, s


def click_on_map(page: Any, name: str, value: str) -> None:
    """Click `value` on the picture and see the form's field take it."""
    page.click(f'#board [data-territory="{value}"] >> nth=0')
    assert page.input_value(f'{FORM} select[name="{name}"]') == value


def enter(page: Any, fields: dict[str, Any], play: str | None) -> None:
    """Fill Ana's form with `fields` by clicking and picking, with a card play if given, and
    press the button the order needs."""
    button = f"{FORM} button.primary"
    for name, value in fields.items():
        if name == "action":
            button = f'{FORM} button[name="action"][value="{value}"]'
        elif isinstance(value, list):
            for item in value:
                page.check(f'{FORM} input[name="{name}"][value="{item}"]')
        elif page.is_visible(f'{FORM} input[type=radio][name="{name}"]'):
            page.check(f'{FORM} input[name="{name}"][value="{value}"]')
        elif page.is_visible(f'{FORM} input[type=checkbox][name="{name}"]'):
            page.check(f'{FORM} input[name="{name}"]')
        elif name in ON_THE_MAP:
            click_on_map(page, name, value)
        else:
            page.select_option(f'{FORM} select[name="{name}"]', value)
    if play:
        page.select_option(f'{FORM} select[name="play"]', play)
    page.click(button)


def test_a_whole_game_turn_of_azteca_played_through_the_forms(served, page):
    app, base = served
    game_id = open_new_game(page, served, ADDRESS, start_game)
    bot = GAME.make_bot("heuristic", SEED)
    played: list[str] = []
    kinds: list[str] = []
    card_played = checked_card = False
    for _ in range(150):
        turn = ana_to_play(app, game_id)
        if turn is None:
            break
        state, s = turn
        kind = state.decision_of(s).kind
        page.wait_for_selector(f"{FORM}[data-kind={kind}]")
        if state.people[s].hand and not checked_card:  # a card explains itself on a tap
            page.click("section.hand details.card-note summary >> nth=0")
            assert page.is_visible("section.hand details.card-note[open] p")
            checked_card = True
        if kind not in kinds:  # each form once on a phone
            page.set_viewport_size({"width": 360, "height": 800})
            assert sideways_scroll(page) == 0, f"the Azteca page scrolls sideways on a phone ({kind})"
            page.set_viewport_size({"width": 1280, "height": 1000})
        order = bot.order(state, s)
        for _ in range(10):  # the bot's own card plays and reorganisations ride along: its answer
            if form_fields(order) is not None:
                break
            state.apply(state.seats[s], order)
            order = bot.order(state, s)
        text = state.order_text(order)
        offered = page.locator(f'{FORM} select[name="play"] option').all()
        play = offered[1].get_attribute("value") if len(offered) > 1 and not card_played else None
        if kind in ("army", "purchase", "march") and kind not in kinds:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"browser-azteca-{kind}.png"), full_page=True)
        with page.expect_navigation():
            enter(page, form_fields(order), play)
        flash = answer_shown(page)
        assert f"{text}" in flash and ("Applied:" in flash or "Accepted, waiting:" in flash), (text, flash)
        if play:
            assert f"play {play}" in flash, (play, flash)
            card_played = True
        played.append(text)
        kinds.append(kind)
    else:
        raise AssertionError(f"turn 1 did not end: {played}")
    page.goto(f"{base}/games/{game_id}")
    page.wait_for_selector("text=Turn")
    assert {"army", "place", "purchase", "look", "bid", "send", "plan", "march", "urn", "tezcatlipoca"} <= set(kinds), kinds
    assert checked_card and card_played
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "browser-azteca-turn-2.png"), full_page=True)


def _march_with_armies_apart(app: Any) -> tuple[int, dict[str, list[str]]]:
    """A game where Ana owes an army move and her armies can reach different places, reached
    by playing her earlier decisions through the service as a person would."""
    from service_helpers import make_game, make_user, owed
    from test_forced_answers import person_answer
    from pbem.services import play
    with app.app_context():
        session = db.session()
        ana = make_user(session, ADDRESS, "Ana")
        game = make_game(session, ana, game="azteca", players=4, bots=("heuristic",) * 3, seed=SEED)
        for _ in range(300):
            decision = owed(session, game, ana)
            moves = decision["options"].get("moves") or {} if decision and decision["kind"] == "march" else {}
            if len({tuple(sorted(ends)) for ends in moves.values() if ends}) > 1:
                return game.id, moves
            play.submit_for_user(session, game.id, ana, person_answer(session, session.get(Game, game.id), ana),
                                 channel="api")
    raise AssertionError("Ana's armies never stood apart")


def test_the_map_outlines_where_any_army_may_go_then_where_the_chosen_one_may(served, browser):
    """Issue 17, "legal options only", for Azteca's army move: until an army is chosen the map
    outlines every place an army of Ana's may reach (the API's moves); once one is chosen, only
    that army's, which are also all the "goes to" list offers.  At desktop size and at 360 px."""
    app, server = served
    game_id, moves = _march_with_armies_apart(app)
    every = sorted({place for ends in moves.values() for place in ends})
    army = min((letter for letter, ends in moves.items() if ends), key=lambda letter: len(moves[letter]))
    for width, height in ((1280, 900), (360, 740)):
        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
        page.set_default_timeout(30_000)
        sign_in(page, server, ADDRESS)
        page.goto(f"{server}/games/{game_id}")
        page.wait_for_selector(f"{FORM}[data-kind=march]")
        assert page.evaluate(OUTLINED) == every, width
        page.select_option(f'{FORM} select[name="army"]', army)
        assert page.evaluate(OUTLINED) == sorted(moves[army]) != every, width
        offered = page.eval_on_selector_all(f'{FORM} select[name="to"] option', "os => os.map(o => o.value)")
        assert offered == ["", *sorted(moves[army])], width
        assert sideways_scroll(page) == 0
        page.context.close()


def _deal_to_make(app: Any) -> tuple[int, str, str]:
    """A game with 18.0's options on where Ana owes a decision of a game turn that only she
    owes (so a deal is made at once), reached by playing her earlier decisions as a person
    would; the game, a seat to offer to and a card of her hand."""
    from service_helpers import make_game, make_user
    from test_forced_answers import person_answer
    from pbem.services import play
    with app.app_context():
        session = db.session()
        ana = make_user(session, ADDRESS, "Ana")
        game = make_game(session, ana, game="azteca", players=4, bots=("heuristic",) * 3, seed=SEED,
                         options={"big_deal": "on", "pirogue_express": "on"})
        for _ in range(300):
            session.expire_all()
            game = session.get(Game, game.id)
            view = play.game_view(session, game, ana).view
            deal = view["me"]["decisions"][0]["options"].get("deal") if view["me"]["decisions"] else None
            if deal and deal["cards"] and len(view["decisions"]) == 1:
                return game.id, deal["seats"][0], deal["cards"][0]
            play.submit_for_user(session, game.id, ana, person_answer(session, game, ana), channel="api")
    raise AssertionError("Ana never owed a decision alone with a card in hand")


def test_a_deal_is_offered_through_the_form_on_a_phone(served, browser):
    """Issue 17 for 18.0's deals: at 360 px, Ana opens her form's deal part, picks whom she
    offers to, a Tribute and a card of her hand, asks leave to use boats in every lake zone,
    and sends the deal without answering her decision; the page says the very offer was made,
    never scrolls sideways, and her decision is still hers to answer."""
    app, server = served
    game_id, seat, card = _deal_to_make(app)
    page = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    page.set_default_timeout(30_000)
    sign_in(page, server, ADDRESS)
    page.goto(f"{server}/games/{game_id}")
    page.click(f"{FORM} details.deals summary")
    assert sideways_scroll(page) == 0
    page.select_option(f'{FORM} select[name="deal-to"]', seat)
    page.select_option(f'{FORM} select[name="give-tributes"]', "1")
    page.check(f'{FORM} input[name="give-card"][value="{card}"] >> nth=0')
    page.check(f'{FORM} input[name="take-boats"][value="all"]')
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "browser-azteca-deal-360.png"), full_page=True)
    with page.expect_navigation():
        page.click(f'{FORM} button[name="without_answer"]')
    flash = answer_shown(page)
    assert f"Applied: offer {seat} 1 tributes, card {card} for boats all" in flash, flash
    assert page.is_visible(f"{FORM} details.deals")  # the decision is still owed, with its deal part
    assert sideways_scroll(page) == 0
    page.context.close()
