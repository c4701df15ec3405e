"""A Cóatl game on the web: the game page shows the position with Cóatl's own template (the
picture, every card in words, the reader's own cards), its decision forms offer exactly the
legal choices and play a whole game, a bad form changes nothing and says why, and another
seat's page never shows the reader's hand or secret temple."""
from __future__ import annotations

import re
from typing import Any

from werkzeug.datastructures import MultiDict

from engine.coatl import GAME
from pbem.models import Game
from pbem.services import lobby, play
from pbem.services.state import game_state
from service_helpers import decision_forms, make_game, owed, web_sign_in
from tests.games.coatl_form_fields import form_fields, posted

BO = "bo@example.com"


def send(client: Any, html: bytes, fields: dict[str, Any]) -> Any:
    """Post Cóatl's decision form as a browser would, with these fields: each value one the
    rendered form offers, and the button pressed one it has."""
    [form] = decision_forms(html)
    assert form.attrs["data-kind"] == fields["kind"]
    pairs = [("csrf_token", form.field("csrf_token")["value"])]
    for name, value in posted(fields):
        if name == "action":
            assert f'name="action" value="{value}"'.encode() in html, value
        elif name != "kind":
            assert value in form.options(name), (name, value, form.options(name))
        pairs.append((name, value))
    return client.post(form.action, data=MultiDict(pairs), follow_redirects=True)


def test_a_coatl_game_page_shows_the_position_and_plays_through_the_forms(app, client, session, ana):
    game = make_game(session, ana, game="coatl", players=2, bots=("heuristic",), seed=11)
    state_view = play.game_view(session, game, ana).view
    hand = state_view["me"]["dealt"]
    web_sign_in(client, app, "ana@example.com")
    url = f"/games/{game.id}"
    page = client.get(url).data.decode()
    assert "<h2>Face-up prophecies</h2>" in page and "<h2>Common temples</h2>" in page
    assert "Your draw (keep up to 3)" in page and f"<li class=\"card\">{hand[0]} (" in page
    assert "(secret)</li>" in page and 'class="piece" data-piece="' in page  # the picture, inline
    assert re.search(r"in a row: |each \w+ piece", page)  # requirements in words
    bot = GAME.make_bot("heuristic", 5)
    played = []
    for _ in range(40):
        session.expire_all()
        state = game_state(session, session.get(Game, game.id))
        if state.is_over():
            break
        decision = owed(session, game, ana)
        order = bot.order(state, state.seats.index(decision["seat"]))
        done = send(client, client.get(url).data, form_fields(decision["kind"], order))
        text = state.order_text(order)
        assert f"Applied: {text}.".encode() in done.data, done.data[-600:]
        played.append(text)
    assert state.is_over(), played
    assert played[0].startswith("keep") and any(order.startswith("take") for order in played)
    assert sum(order.startswith("new") and "complete" in order for order in played) >= 2  # assemblies, step by step
    page = client.get(url).data.decode()
    assert "Your draw" not in page and "Board: <code>heads" in page and "<h2>Result</h2>" in page
    assert "took body space" in page or "took head space" in page or "took tail space" in page  # the history


def test_another_seats_page_shows_nothing_of_a_hand_or_secret_temple(app, client, session, ana, bo):
    """Twin games, the same but for what Ana keeps: Bo's pages are the same."""
    pages = []
    for n, keep in ((1, "keep none"), (2, None)):
        game = make_game(session, ana, title=f"Twin {n}", game="coatl", players=2, bots=(), invites=[BO], seed=3)
        lobby.join_game(session, game.id, bo)
        game = session.get(Game, game.id)
        decision = owed(session, game, ana)
        play.submit_for_user(session, game.id, ana, keep or f"keep {' '.join(map(str, decision['options']['dealt'][:3]))}",
                             channel="web")
        pages.append(game.id)
    web_sign_in(client, app, BO)
    seen = []
    for game_id in pages:
        html = client.get(f"/games/{game_id}").data.decode()
        html = re.sub(r'name="csrf_token" value="[^"]*"', "", html).replace(f"/games/{game_id}", "/games/N")
        html = re.sub(r'<strong class="deadline-at"[^>]*>[^<]*</strong>', "", html)
        seen.append(re.sub(r"orders\+\w+@", "orders+X@", html).replace(f"Twin {1 + pages.index(game_id)}", "Twin"))
    assert seen[0] == seen[1] and "Your draw (keep up to 3)" in seen[0]


def turn_page(app, client, session, ana, takes: int = 3) -> tuple[Game, str, Any]:
    """Ana's game against a bot, past setup and a few of her takes, at her turn: the game,
    its page and the engine state."""
    game = make_game(session, ana, game="coatl", players=2, bots=("heuristic",), seed=11)
    web_sign_in(client, app, "ana@example.com")
    url = f"/games/{game.id}"
    send(client, client.get(url).data, {"kind": "keep", "keep": []})
    for _ in range(takes):
        decision = owed(session, game, ana)
        kind, spaces = next((kind, spaces) for kind, spaces in decision["options"]["take"].items() if spaces)
        send(client, client.get(url).data, {"kind": "turn", "action": "take", "take": f"{kind} {spaces[0]}"})
    session.expire_all()
    return game, url, game_state(session, session.get(Game, game.id))


def test_the_turn_form_offers_exactly_the_legal_choices(app, client, session, ana):
    game, url, state = turn_page(app, client, session, ana)
    s = state.waiting()[0]
    player, options = state.players[s], state.decisions()[0].options
    html = client.get(url).data
    [form] = decision_forms(html)
    assert form.options("take") == ["", *(f"{kind} {space}" for kind in ("head", "body", "tail")
                                          for space in options["take"][kind])]
    assert form.options("card") == [str(card) for card in state.row]
    room = 5 - len(player.hand)
    assert form.options("deck") == [str(n) for n in range(min(room, len(state.deck) + len(state.discard)) + 1)]
    letters = {"Y": "yellow", "R": "red", "K": "black", "G": "green", "B": "blue"}
    board = {f"{letters[colour]} {kind}" for colour, kind in player.board}
    assert set(form.options("step-1-piece")) == {"", *board} and len(board) >= 2
    bodies = any(kind == "body" for _, kind in player.board)
    verbs = [verb for n in (1, 2, 3) for verb, offered in ((f"add-{n}", True), (f"front-{n}", bodies),
                                                           (f"fulfil-{n}", bool(player.hand)),
                                                           (f"complete-{n}", True)) if offered]
    assert form.options("step-1-do") == ["", "new", *verbs]
    assert form.options("step-1-temple") == ["", *map(str, player.temples + state.commons())]
    assert form.options("sacrifice") == ["", "pick head", "pick body", "pick tail", "future",
                                         *(f"commit {card}" for card in state.commons())]
    assert 'checked' not in re.sub(r'<input type="radio" name="map_target" value="take" checked>', "",
                                   html.decode().split('class="decision')[1])  # nothing chosen for the player
    assert b'name="action" value="pass"' in html and b"By mail: <code>take " in html


def test_a_bad_form_changes_nothing_and_says_why(app, client, session, ana):
    game, url, state = turn_page(app, client, session, ana, takes=1)
    log = state.order_log()
    missing = send(client, client.get(url).data, {"kind": "turn", "action": "take"})
    assert missing.status_code == 422 and b"Not accepted: choose a supply space to take" in missing.data
    refused = send(client, client.get(url).data, {"kind": "turn", "action": "assemble",
                                                   "steps": [{"do": "complete-1", "temple": ""}]})
    assert refused.status_code == 422
    assert "Not accepted: cóatl 1".encode() in refused.data or "Not accepted: there is no cóatl 1".encode() in refused.data
    assert b">complete 1</textarea>" in refused.data  # the order text the form made, to learn or fix
    session.expire_all()
    assert game_state(session, session.get(Game, game.id)).order_log() == log
