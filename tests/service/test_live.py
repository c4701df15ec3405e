"""Live pages without Redis (`make run`'s embedded defaults): a game's stamp moves with what a
page shows, the page's event stream and the API's `wait` answer when it moves, and neither
tells anyone more than the page does."""
from __future__ import annotations

import threading

from sqlalchemy import select

from pbem import live
from pbem.models import Game
from pbem.services import accounts, lobby, play, press
from service_helpers import make_game, web_sign_in

BO = "bo@example.com"


def duel(session, ana, bo):
    game = make_game(session, ana, game="duel", players=2, bots=(), invites=[BO], seed=3)
    lobby.join_game(session, game.id, bo)
    return session.get(Game, game.id)


def seat(game, user):
    return next(s for s in game.seats if s.user_id == user.id)


def token(session, user):
    return {"Authorization": f"Bearer {accounts.create_api_token(session, user, 'live')[1]}"}


def test_the_stamp_moves_with_orders_in_and_with_each_advance(app, session, ana, bo):
    game = duel(session, ana, bo)
    first = live.stamp(session, game.id)
    play.submit_orders(session, seat(game, ana), "bid 2", channel="web")
    after_bid = live.stamp(session, game.id)
    assert after_bid != first  # "orders in: Ana" is on every page now
    play.submit_orders(session, seat(game, ana), "bid 3", channel="web")
    assert live.stamp(session, game.id) == after_bid  # a changed mind is nobody else's news
    play.submit_orders(session, seat(game, bo), "bid 1", channel="web")
    session.expire_all()
    assert live.stamp(session, game.id) not in (first, after_bid)
    assert live.stamp(session, game.id).startswith(f"{session.scalar(select(Game.version).where(Game.id == game.id))}.")
    assert live.stamp(session, 987654) is None


def test_the_api_waits_for_the_next_change_and_answers_with_it(app, client, session, ana, bo):
    game = duel(session, ana, bo)
    headers = token(session, bo)
    before = client.get(f"/api/games/{game.id}/view", headers=headers)
    stamp = before.json["stamp"]
    assert before.headers["ETag"] == f'"{stamp}"'
    answers = []
    waiting = threading.Thread(target=lambda: answers.append(app.test_client().get(
        f"/api/games/{game.id}/view?since={stamp}&wait=30", headers=headers)))
    waiting.start()
    ana_client = app.test_client()
    assert ana_client.post(f"/api/games/{game.id}/orders", json={"orders": "bid 2"},
                           headers=token(session, ana)).status_code == 201
    waiting.join(60)
    [answer] = answers
    assert answer.status_code == 200 and answer.json["stamp"] != stamp
    assert answer.json["submitted"] == [seat(game, ana).name]  # what moved: Ana's bid is in
    assert "bid 2" not in answer.get_data(as_text=True)  # never what she bid


def test_a_wait_with_nothing_new_answers_with_the_same_stamp(app, client, session, ana, bo):
    game = duel(session, ana, bo)
    headers = token(session, bo)
    stamp = client.get(f"/api/games/{game.id}/view", headers=headers).json["stamp"]
    answer = client.get(f"/api/games/{game.id}/view?since={stamp}&wait=1", headers=headers)
    assert answer.status_code == 200 and answer.json["stamp"] == stamp
    stale = client.get(f"/api/games/{game.id}/view?since=0.0&wait=30", headers=headers)
    assert stale.json["stamp"] == stamp  # an old stamp answers at once


def test_a_bad_wait_is_refused_and_a_missing_game_is_not_found(app, client, session, ana, bo):
    game = duel(session, ana, bo)
    headers = token(session, bo)
    for bad in ("61", "-1", "soon", "1e3", "١"):
        answer = client.get(f"/api/games/{game.id}/view?since=1.0&wait={bad}", headers=headers)
        assert answer.status_code == 422 and "wait is a whole number" in answer.json["message"], bad
    assert client.get("/api/games/987654/view?since=1.0&wait=5", headers=headers).status_code == 404
    assert client.get("/api/games/987654/view", headers=headers).status_code == 404
    assert client.get("/games/987654/live").status_code == 404


def test_the_order_answer_says_what_happened(app, client, session, ana, bo):
    game = duel(session, ana, bo)
    waiting = client.post(f"/api/games/{game.id}/orders", json={"orders": "bid 2"}, headers=token(session, ana))
    assert waiting.json["status"] == "waiting" and waiting.json["applied"] is False
    applied = client.post(f"/api/games/{game.id}/orders", json={"orders": "bid 1"}, headers=token(session, bo))
    assert applied.json["status"] == "applied" and applied.json["applied"] is True  # inline: done here


def test_the_page_stream_sends_a_change_once_the_game_moves(app, session, ana, bo):
    game = duel(session, ana, bo)
    page = app.test_client().get(f"/games/{game.id}").get_data(as_text=True)
    stamp = live.stamp(session, game.id)
    assert f'data-stamp="{stamp}"' in page and f'content="/games/{game.id}/live"' in page
    stream = app.test_client().get(f"/games/{game.id}/live?stamp={stamp}", buffered=False)
    assert stream.mimetype == "text/event-stream" and stream.headers["Cache-Control"] == "no-cache"
    chunks = iter(stream.response)
    assert next(chunks).startswith(b"retry:")
    play.submit_orders(session, seat(game, ana), "bid 2", channel="web")
    event = next(chunks).decode()
    new = live.stamp(session, game.id)
    assert event == f"id: {new}\nevent: change\ndata: {new}\n\n" and new != stamp
    stream.close()


def test_the_lobby_follows_the_games_it_shows_and_new_ones(app, client, session, ana, bo):
    game = make_game(session, ana, game="duel", players=2, bots=(), invites=[BO], seed=3)
    web_sign_in(client, app, "ana@example.com")
    home = client.get("/").get_data(as_text=True)
    stamp = live.lobby_stamp(session, [game.id])
    assert f'data-stamp="{stamp}"' in home and f"/live/home?games={game.id}" in home
    lobby.join_game(session, game.id, bo)  # a seat taken moves it, and so does the start
    joined = live.lobby_stamp(session, [game.id])
    assert joined != stamp
    make_game(session, ana, game="duel", players=2, bots=(), title="Another", seed=4)
    assert live.lobby_stamp(session, [game.id]) != joined  # a new game: the lists change


def test_the_lobby_stream_tells_of_a_new_game(app, session, ana):
    first = make_game(session, ana, game="duel", players=2, bots=(), seed=3)
    stamp = live.lobby_stamp(session, [first.id])
    stream = app.test_client().get(f"/live/home?games={first.id}&stamp={stamp}", buffered=False)
    chunks = iter(stream.response)
    assert next(chunks).startswith(b"retry:")
    make_game(session, ana, game="duel", players=2, bots=(), title="New", seed=4)
    event = next(chunks).decode()
    assert event.startswith("id: ") and "event: change" in event
    stream.close()


def test_a_bad_game_list_is_refused(app, client):
    for bad in ("1,,2", "x", "1;2", "9" * 12, ",".join(["1"] * 5000)):
        assert client.get(f"/live/home?games={bad}").status_code in (400, 422), bad


def test_the_view_answers_with_the_stamp_of_the_moment_it_shows(app, client, session, ana, bo):
    """The API view's stamp is read with the view, in the same statement as its pending
    orders: it is the stamp `live.stamp` reads at that moment (orders in, public press; a
    private message moves nothing)."""
    game = duel(session, ana, bo)
    headers = token(session, bo)
    play.submit_orders(session, seat(game, ana), "bid 2", channel="web")
    press.post(session, game.id, ana, "hello all", channel="web")
    press.post(session, game.id, ana, "psst", to=seat(game, bo).name, channel="web")
    answer = client.get(f"/api/games/{game.id}/view", headers=headers)
    stamp = live.stamp(session, game.id)
    assert answer.json["stamp"] == stamp and answer.headers["ETag"] == f'"{stamp}"'
    assert stamp.endswith(".1.1")  # one seat's orders in, one public message
