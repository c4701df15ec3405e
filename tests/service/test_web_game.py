"""The game page: a whole 3-player game (one person, two bots) played through its forms."""
from __future__ import annotations

import json
import re

from sqlalchemy import select

from pbem.models import Game, PendingOrder
from pbem.services.state import game_state
from service_helpers import form_with, forms, make_game, make_user, submit, web_sign_in


def decision_forms(html):
    return [f for f in forms(html) if "decision" in f.attrs.get("class", "")]


def choose(form, step):
    """Values a player might pick in a decision form, varied by step."""
    kind = form.attrs["data-kind"]
    if kind == "power":
        return {"card": form.options("card")[0]}  # the lowest card first: 4 is the wild card
    if kind == "turn":
        places = [p for p in form.options("place") if p]
        return {"place": places[(step * 7) % len(places)]}
    if kind == "conflict":
        return {name: form.options(name)[0] for name in form.names() if name.startswith("settle-")}
    if kind == "scoring":
        chosen = {"blessing": form.options("blessing")}
        if form.options("rafts"):
            chosen["rafts"] = form.options("rafts")[:1]
        return chosen
    return {}


def test_a_whole_game_through_the_forms(app, client, session):
    web_sign_in(client, app, "ana@example.com")
    created = submit(client, "/games/new", "/games/new", title="Forms game", players="3", bots="2")
    game = session.scalar(select(Game))
    assert game.status == Game.ACTIVE and f"/games/{game.id}" in created.request.path
    url = f"/games/{game.id}"
    kinds, messages = set(), 0
    for step in range(300):
        session.expire_all()
        if session.get(Game, game.id).status == Game.FINISHED:
            break
        page = client.get(url)
        owed = decision_forms(page.data)
        assert len(owed) == 1, "exactly the decision the game waits for is offered"
        form = owed[0]
        kinds.add(form.attrs["data-kind"])
        response = client.post(form.action, data=form.data(**choose(form, step)), follow_redirects=True)
        assert response.status_code == 200, response.data[-600:]
        messages += b"Applied:" in response.data
    else:
        raise AssertionError("the game did not finish")
    assert {"power", "turn", "scoring"} <= kinds and messages == step
    page = client.get(url).data
    assert b"Result" in page and b"wins" in page and not decision_forms(page)
    record = json.loads(client.get(f"{url}/record.json").data)
    assert record["seed"] == game.setup["seed"] and len(record["orders"]) > 3 * step // 2


def test_the_page_shows_board_track_cards_and_history(app, client, session):
    web_sign_in(client, app, "ana@example.com")
    submit(client, "/games/new", "/games/new", title="Show", players="3", bots="2")
    game = session.scalar(select(Game))
    url = f"/games/{game.id}"
    submit(client, url, f"{url}/orders", card="9")
    submit(client, url, f"{url}/orders", place="3")
    page = client.get(url).data.decode()
    session.expire_all()
    state = game_state(session, session.get(Game, game.id))
    assert decision_forms(page), "Ana owes her next turn: the board is clickable"
    for territory in state.board.territories:
        assert f'data-territory="{territory.id}"' in page
    # Each card in hand opens its meaning on a tap (templates/games/aztlan/game/_cards.html).
    left, chosen = page.split('class="hand"', 1)[1].split("</section>", 1)[0].split("chosen this age:", 1)
    assert "Score track" in page and re.findall(r"<summary[^>]*>(\d)</summary>", left) == ["4", "5", "6", "7", "8", "9"]
    assert re.match(r'\s*<details class="card-note"><summary[^>]*>9</summary>', chosen)
    assert "Age 1 begins." in page and "Turn order:" in page and "ana placed a pawn in 3" in page
    assert "Age <strong>1</strong> of 5" in page and "development" in page
    # The pawns placed so far are on the board, per people with counts (drawn or listed).
    pawns = state.view(None)["pawns"]
    assert pawns and all(f'data-people="{people}" data-count="{count}"' in page or f"{people} ×{count}" in page
                         for cell in pawns.values() for people, count in cell.items())


def test_free_text_orders_and_their_errors(app, client, session):
    web_sign_in(client, app, "ana@example.com")
    submit(client, "/games/new", "/games/new", title="Text", players="3", bots="2")
    game = session.scalar(select(Game))
    url = f"/games/{game.id}"
    page = client.get(url)
    text_form = next(f for f in forms(page.data) if f.attrs.get("method") == "post" and "kind" in f.names()
                     and f.field("kind")["value"] == "text")
    bad = client.post(text_form.action, data=text_form.data(orders="card seven"))
    assert bad.status_code == 422 and b"Not accepted" in bad.data and b"a power card number" in bad.data
    assert b"card seven</textarea>" in bad.data  # kept for correcting
    good = client.post(text_form.action, data=text_form.data(orders="card 6 # my secret"), follow_redirects=True)
    assert b"Applied: card 6." in good.data


def test_the_turn_form_builds_place_eagle_and_move(app, client, session):
    web_sign_in(client, app, "ana@example.com")
    submit(client, "/games/new", "/games/new", title="Turn", players="3", bots="2")
    game = session.scalar(select(Game))
    url = f"/games/{game.id}"
    submit(client, url, f"{url}/orders", card="8")
    form = form_with(client.get(url).data, f"{url}/orders", data_kind="turn")
    board = game_state(session, game).board
    first, neighbour = board.territories[0].id, board.territories[0].neighbours[0]
    half_move = client.post(form.action, data=form.data(place=str(first), move_from=str(first)))
    assert half_move.status_code == 422 and b"a move needs both" in half_move.data
    done = client.post(form.action, data=form.data(place=str(first), move_from=str(first), move_to=str(neighbour)),
                       follow_redirects=True)
    assert f"Applied: place {first} move {first} to {neighbour}.".encode() in done.data


def test_a_secret_choice_can_be_changed_and_withdrawn_on_the_page(app, client, session):
    bo = make_user(session, "bo@example.com", "Bo")
    web_sign_in(client, app, "ana@example.com")
    submit(client, "/games/new", "/games/new", title="Secret", players="3", bots="1", invites="bo@example.com")
    game = session.scalar(select(Game))
    from pbem.services import lobby
    lobby.join_game(session, game.id, bo)
    url = f"/games/{game.id}"
    first = submit(client, url, f"{url}/orders", card="5")
    assert b"Accepted, waiting: card 5" in first.data and b"Your orders waiting" in first.data
    second = submit(client, url, f"{url}/orders", card="7")
    assert b"Accepted, waiting: card 7" in second.data
    assert session.scalars(select(PendingOrder.text)).all() == ["card 7"]
    withdrawn = submit(client, url, f"{url}/withdraw")
    assert b"Withdrew 1 pending order" in withdrawn.data
    assert session.scalars(select(PendingOrder.text)).all() == []


def test_anyone_may_watch_and_a_finished_game_steps_move_by_move(app, client, session):
    ana = make_user(session, "ana@example.com", "Ana")
    game = make_game(session, ana, seed=5)
    watching = client.get(f"/games/{game.id}").data
    assert b"watching" in watching and not decision_forms(watching)
    assert client.get(f"/games/{game.id}/record.json").status_code == 409
    assert client.get(f"/games/{game.id}/replay?step=1").status_code == 409
    from pbem.services import play
    from pbem.testing import first_legal_order
    while session.get(Game, game.id).status != Game.FINISHED:
        decision = play.game_view(session, game, ana).view["me"]["decisions"][0]
        play.submit_for_user(session, game.id, ana, first_legal_order(decision), channel="api")
        session.expire_all()
    record = json.loads(client.get(f"/games/{game.id}/record.json").data)
    start = client.get(f"/games/{game.id}/replay?step=0").data
    assert b"order 0 of" in start and b"next" in start
    third = client.get(f"/games/{game.id}/replay?step=3").data.decode()
    assert f"order 3 of {len(record['orders'])}" in third and record["orders"][2] in third
    last = client.get(f"/games/{game.id}/replay?step={len(record['orders'])}").data
    assert b"wins" in last and b"next" not in last
    assert client.get(f"/games/{game.id}/replay?step=99999").status_code == 422


def test_security_headers(client):
    response = client.get("/")
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "same-origin"
