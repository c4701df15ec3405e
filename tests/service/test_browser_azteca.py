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
                             sideways_scroll)
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
