"""In a real browser, a whole game of Cóatl through the web forms: Ana plays one seat against
a heuristic bot, by clicks only (supply spaces and pieces on the picture, boxes, selects and
buttons), until the game ends and the result shows; the page also fits a 360 px phone.

What Ana plays is what the heuristic bot would play in her seat (it takes pieces, chooses
prophecies, and assembles and completes cóatls when it can, else passes); each of its
orders is entered through the form as a person would, and the page must answer "Applied:"
with that very order.  The game is seeded and uses fewer body pieces, which keeps it short.
The app advances inline (PBEM_ADVANCE=inline, as in test_browser.py): the request that
carries Ana's order also plays the bot's turns.  Playwright drives Debian's chromium
(browser_support.py); screenshots are saved under artifacts/.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_support import (ARTIFACTS, answer_shown, browser, open_new_game, page, served, server,  # noqa: F401
                             sideways_scroll)
from engine.coatl import GAME
from pbem.extensions import db
from pbem.games.coatl.forms import OPEN_ROWS
from pbem.models import Game
from pbem.services import accounts, lobby
from pbem.services.state import game_state
from tests.games.coatl_form_fields import form_fields

SEED = 14  # Ana completes three cóatls, one in a ten-step assembly (the "more steps" rows)
ADDRESS = "ana@example.com"
FORM = "form.decision"


def start_game(app: Any, base: str) -> int:
    """Ana's seeded two-player game against the heuristic bot, with fewer body pieces."""
    with app.app_context():
        ana = accounts.owner_of(db.session(), ADDRESS)
        game = lobby.create_game(db.session(), ana, lobby.NewGame(
            title="Cóatl in a browser", game="coatl", players=2, bots=("heuristic",),
            options={"body_pieces": "fewer"}, seed=SEED), base_url=base)
        return game.id


def ana_to_play(app: Any, game_id: int) -> tuple[Any, int] | None:
    """The state and Ana's seat index when she owes a decision; None once the game is over."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        state = game_state(db.session(), game)
        ana = next(seat.name for seat in game.seats if seat.user_id is not None)
        if state.is_over():
            return None
        s = state.seats.index(ana)
        assert s in state.waiting(), "the bot's turns are played inline, before the page comes back"
        return state, s


def tick(page: Any, name: str, values: list[str]) -> None:
    for value in values:
        page.check(f'{FORM} input[name="{name}"][value="{value}"]')


def click_on_board(page: Any, target: str, value: str) -> None:
    """Arm `target` (its "pick on the board" radio), click `value` on the picture, and see
    the field take it."""
    page.check(f'{FORM} input[name="map_target"][value="{target}"]')
    page.click(f'#board [data-territory="{value}"] >> nth=0')
    assert page.input_value(f'{FORM} select[name="{target}"]') == value


def enter(page: Any, fields: dict[str, Any], picture: Path | None = None) -> None:
    """Fill Ana's form with `fields` (tests/games/coatl_form_fields.py) by clicking, and press
    its button (`picture`: a screenshot of the filled form first)."""
    if fields["kind"] == "keep":
        tick(page, "keep", fields["keep"])
        page.click(f"{FORM} button[type=submit]")
        return
    if fields["kind"] == "choose":  # after See the Future
        tick(page, "discard", fields["discard"])
    action = fields.get("action")
    if "card" in fields:
        tick(page, "card", fields["card"])
        page.select_option(f'{FORM} select[name="deck"]', fields["deck"])
    if action == "take":
        click_on_board(page, "take", fields["take"])
    elif action == "sacrifice":
        page.select_option(f'{FORM} select[name="sacrifice"]', fields["sacrifice"])
    for row, step in enumerate(fields.get("steps") or [], start=1):
        if row > OPEN_ROWS and not page.is_visible(f'{FORM} select[name="step-{row}-do"]'):
            page.click(f"{FORM} details.more-steps summary")
        page.select_option(f'{FORM} select[name="step-{row}-do"]', step["do"])
        if "piece" in step:
            click_on_board(page, f"step-{row}-piece", step["piece"])
        tick(page, f"step-{row}-card", step.get("card", []))
        if "temple" in step:
            page.select_option(f'{FORM} select[name="step-{row}-temple"]', step["temple"])
    if picture is not None:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(picture), full_page=True)
    page.click(f'{FORM} button[type=submit]' if action is None else f'{FORM} button[name="action"][value="{action}"]')


def test_a_whole_game_of_coatl_played_by_clicks_against_a_bot(served, page):
    app, _ = served
    game_id = open_new_game(page, served, ADDRESS, start_game)
    bot = GAME.make_bot("heuristic", SEED)
    played: list[str] = []
    checked_phone = False
    for _ in range(200):
        turn = ana_to_play(app, game_id)
        if turn is None:
            break
        state, s = turn
        kind = state.decisions()[0].kind
        page.wait_for_selector(f"{FORM}[data-kind={kind}]")
        order = bot.order(state, s)
        text = state.order_text(order)
        if kind == "turn" and not checked_phone and state.players[s].board:
            page.set_viewport_size({"width": 360, "height": 800})
            assert sideways_scroll(page) == 0, "the Cóatl page scrolls sideways on a phone"
            page.set_viewport_size({"width": 1280, "height": 1000})
            checked_phone = True
        with page.expect_navigation():
            first_assembly = "complete" in text and not any("complete" in line for line in played)
            enter(page, form_fields(kind, order), ARTIFACTS / "browser-coatl-assembly.png" if first_assembly else None)
        flash = answer_shown(page)
        assert f"Applied: {text}." in flash, (text, flash)
        played.append(text)
    else:
        raise AssertionError(f"the game did not end: {played}")
    page.wait_for_selector("section.result")
    result = page.inner_text("section.result")
    assert "wins" in result or "First place is shared" in result
    assert checked_phone and played[0].startswith("keep")
    assert any(line.startswith("take") for line in played) and any(line.startswith("choose") for line in played)
    assert sum("complete" in line for line in played) >= 2, "\n".join(played)  # cóatls assembled and completed by clicks
    assert not page.is_visible(FORM), "no form once the game is over"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "browser-coatl-over.png"), full_page=True)
