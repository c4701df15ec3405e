"""Duel, the test game with no presentation of its own, on the web and through the API: the
plain fallbacks must carry a whole game (the new-game form built from its options, a text box
per owed decision, the view's public facts, its round name), and never show a seat another
seat's secret bid."""
from __future__ import annotations

import json
import re

import pytest
from sqlalchemy import select

import engine

from pbem.models import Game, OrderLogEntry
from pbem.services import accounts, lobby, play
from service_helpers import decision_forms, form_with, forms, make_game, make_user, owed, submit, web_sign_in

BO = "bo@example.com"


def order_for(decision):
    """A legal order from the decision's own options (Duel's presentation gives none)."""
    options = decision["options"]
    return f"bid {options['low']}" if decision["kind"] == "bid" else f"pick {max(options['tokens'])}"


def test_the_new_game_form_offers_the_chosen_games_own_options(app, client, session):
    web_sign_in(client, app, "ana@example.com")
    lobby_page = client.get("/games/new").data.decode()
    assert "New game of Aztlán" in lobby_page and 'href="/games/new?game=duel"' in lobby_page
    page = client.get("/games/new?game=duel")
    assert b"New game of Duel (test game)" in page.data
    form = form_with(page.data, "/games/new")
    assert form.field("game")["value"] == "duel"
    assert form.options("players") == ["2", "3", "4"] and form.options("bot_kind") == ["random", "heuristic", "minimal"]
    assert form.field("rounds")["type"] == "number" and form.field("rounds")["value"] == "3"
    assert form.options("tie_break") == ["least-spent", "none"]
    assert {"hours_bid", "hours_pick"} <= set(form.names())
    assert not {"board", "edition", "final_tiebreak", "hours_power"} & set(form.names())
    assert b"how many rounds are played" in page.data  # the option's help
    created = client.post(form.action, data=form.data(title="Duel night", players="2", bots="1", rounds="2",
                                                       tie_break="none", hours_pick="6"), follow_redirects=True)
    assert b"Game created" in created.data
    game = session.scalar(select(Game))
    assert game.kind == "duel" and game.setup["options"] == {"rounds": 2, "tie_break": "none"}
    assert "board" not in game.setup and "edition" not in game.setup
    assert game.deadline_policy["hours"] == {"bid": 24, "pick": 6}


@pytest.mark.parametrize("fields, message", [
    ({"rounds": "12"}, b"option rounds must be a whole number from 1 to 9"),
    ({"tie_break": "coin"}, b"option tie_break must be one of least-spent, none"),
    ({"players": "5"}, b"is for 2 to 4 players"),
    ({"game": "chess"}, b"unknown game"),
])
def test_a_bad_duel_is_refused_with_the_games_reason(app, client, session, fields, message):
    web_sign_in(client, app, "ana@example.com")
    form = form_with(client.get("/games/new?game=duel").data, "/games/new")
    page = client.post(form.action, data=form.data(**{"title": "Bad", "players": "2", **fields}))
    assert page.status_code == 422 and message in page.data
    assert session.scalar(select(Game)) is None
    assert client.get("/games/new?game=chess").status_code == 422


def asked_and_forced(session, game_id, seat, asked):
    """The kinds of the seat's orders in the log, after checking that the person was asked
    exactly the others: a question with one possible answer (a pick with one token left, a bid
    with one coin; random seeds make either happen) is the service's to answer
    (docs/deadlines.md, "Forced answers")."""
    session.expire_all()
    rows = session.execute(select(OrderLogEntry.text, OrderLogEntry.by).where(
        OrderLogEntry.game_id == game_id, OrderLogEntry.seat == seat).order_by(OrderLogEntry.seq)).all()
    session.rollback()
    assert [text.split()[0] for text, by in rows if by != "forced"] == asked
    return [text.split()[0] for text, _ in rows]


def test_a_whole_duel_game_through_the_plain_decision_forms(app, client, session):
    web_sign_in(client, app, "ana@example.com")
    form = form_with(client.get("/games/new?game=duel").data, "/games/new")
    client.post(form.action, data=form.data(title="Duel", players="2", bots="1", rounds="2"))
    game = session.scalar(select(Game))
    ana = session.scalar(select(Game)).seats[0].user
    url = f"/games/{game.id}"
    page = client.get(url).data.decode()
    assert "Round <strong>1</strong> · <strong>bidding</strong> phase" in page
    assert " of " not in page.split('class="phase">', 1)[1].split("</p>", 1)[0]  # Duel says no round count
    assert "Secret bid" in page and "Write bid N (1 to 5 of your coins)." in page
    assert "Players" in page and "<th>coins</th>" in page  # the view's public facts per seat
    assert not re.search(r"Age|power card|Score track|territor", page)
    kinds = []
    for step in range(20):
        session.expire_all()
        if session.get(Game, game.id).status == Game.FINISHED:
            break
        html = client.get(url).data
        [form] = decision_forms(html)
        kinds.append(form.attrs["data-kind"])
        assert form.names() == ["csrf_token", "kind", "orders"]
        order = order_for(owed(session, game, ana))
        done = client.post(form.action, data=form.data(orders=order), follow_redirects=True)
        assert f"Applied: {order}.".encode() in done.data, done.data[-400:]
    else:
        raise AssertionError("the game did not finish")
    assert asked_and_forced(session, game.id, game.seats[0].name, kinds) == ["bid", "pick", "bid", "pick"]
    page = client.get(url).data.decode()
    assert "Result" in page and not decision_forms(page)
    assert re.search(r"<strong>[^<]+</strong> wins\.|First place is shared\.", page)
    assert '<span class="round">round 2</span>' in page  # the history in the game's words
    record = json.loads(client.get(f"{url}/record.json").data)
    assert record["game"] == "duel" and len(record["orders"]) == 8
    replay = client.get(f"{url}/replay?step=2").data.decode()
    assert "order 2 of 8" in replay and "Round <strong>1</strong> · <strong>picking</strong> phase" in replay


def test_a_bad_bid_in_the_plain_form_says_why(app, client, session):
    web_sign_in(client, app, "ana@example.com")
    form = form_with(client.get("/games/new?game=duel").data, "/games/new")
    client.post(form.action, data=form.data(title="Duel", players="2", bots="1"))
    url = f"/games/{session.scalar(select(Game.id))}"
    [form] = decision_forms(client.get(url).data)
    refused = client.post(form.action, data=form.data(orders="bid 9"))
    assert refused.status_code == 422 and b"you may bid 1 to 5 coins" in refused.data


def twin_games(session, ana, bo):
    """Two games of Ana and Bo that are the same but for their titles' number."""
    games = []
    for n in (1, 2):
        game = make_game(session, ana, title=f"Twin {n}", game="duel", players=2, bots=(), invites=[BO], seed=3)
        lobby.join_game(session, game.id, bo)
        games.append(session.get(Game, game.id))
    return games


def same_page(html: str, game_id: int) -> str:
    """A page with what differs between two games' pages anyway: ids, form tokens, the
    reply address, the deadline's minute."""
    html = re.sub(r'name="csrf_token" value="[^"]*"', "", html)
    html = html.replace(f"/games/{game_id}/", "/games/N/").replace(f"/games/{game_id}\"", "/games/N\"")
    html = re.sub(r"orders\+\w+@", "orders+X@", html)
    html = re.sub(r'<strong class="deadline-at"[^>]*>[^<]*</strong>', "", html)
    return re.sub(r"Twin \d", "Twin", html)


def test_a_seat_never_sees_another_seats_secret_bid(app, client, session, ana, bo):
    games = twin_games(session, ana, bo)
    web_sign_in(client, app, "ana@example.com")
    for game, coins in zip(games, (4, 2)):
        [form] = decision_forms(client.get(f"/games/{game.id}").data)
        answer = client.post(form.action, data=form.data(orders=f"bid {coins}"), follow_redirects=True)
        assert f"Accepted, waiting: bid {coins}".encode() in answer.data  # Bo has not bid yet
    assert b"<code>bid 4</code>" in client.get(f"/games/{games[0].id}").data  # Ana sees her own
    bo_client = app.test_client()
    web_sign_in(bo_client, app, BO)
    pages = [same_page(bo_client.get(f"/games/{game.id}").data.decode(), game.id) for game in games]
    assert pages[0] == pages[1] and "Orders in: Ana" in pages[0]
    waiting = pages[0].split('<section class="waiting">')[1].split("</ul>")[0]
    assert "Bo" in waiting and "Ana" not in waiting  # the list is who the game still waits for
    token = {"Authorization": f"Bearer {accounts.create_api_token(session, bo, 'bo')[1]}"}
    views = [bo_client.get(f"/api/games/{game.id}/view", headers=token).json for game in games]
    for view in views:
        del view["game"]
    assert views[0] == views[1] and views[0]["submitted"] == [views[0]["view"]["seats"][0]["seat"]]
    histories = [bo_client.get(f"/api/games/{game.id}/history", headers=token).json for game in games]
    assert histories[0] == histories[1]
    # Once Bo has bid, the bids are revealed to both: the twins differ, as they should.
    for game in games:
        play.submit_for_user(session, game.id, bo, "bid 3", channel="web")
    revealed = [bo_client.get(f"/api/games/{game.id}/history", headers=token).json["events"] for game in games]
    assert revealed[0] != revealed[1] and any(e["type"] == "reveal" for e in revealed[0])


def test_duel_refuses_orders_queued_ahead_on_the_page(app, client, session, ana):
    game = make_game(session, ana, game="duel", players=2, bots=("heuristic",))
    web_sign_in(client, app, "ana@example.com")
    url = f"/games/{game.id}"
    page = client.get(url).data.decode()
    assert f"{url}/queue" not in page and "Queued turns" not in page
    csrf = forms(page)[0].data()["csrf_token"]
    answer = client.post(f"{url}/queue", data={"csrf_token": csrf, "turns": "bid 2"}, follow_redirects=True)
    assert b"Not done: Duel (test game) takes no orders queued ahead" in answer.data
    assert owed(session, game, ana)["kind"] == "bid"  # nothing was played


# ---- the API ---------------------------------------------------------------------------------------

@pytest.fixture
def ana_token(session, ana):
    return {"Authorization": f"Bearer {accounts.create_api_token(session, ana, 'test')[1]}"}


def test_a_duel_game_through_the_api(client, ana_token, session):
    created = client.post("/api/games", headers=ana_token, json={
        "title": "API duel", "game": "duel", "players": 2, "bots": ["heuristic"], "options": {"rounds": 1},
        "deadlines": {"hours": {"pick": 6}}})
    assert created.status_code == 201, created.json
    game = created.json
    assert (game["kind"], game["board"], game["options"]) == ("duel", None, {"rounds": 1})
    url = f"/api/games/{game['id']}"
    orders = []
    while (seen := client.get(f"{url}/view", headers=ana_token).json)["game"]["status"] != "finished":
        order = order_for(seen["view"]["me"]["decisions"][0])
        answer = client.post(f"{url}/orders", json={"orders": order}, headers=ana_token)
        assert answer.status_code == 201 and answer.json["applied"], answer.json
        orders.append(order)
    assert asked_and_forced(session, game["id"], seen["seat"], [order.split()[0] for order in orders]) == ["bid", "pick"]
    history = client.get(f"{url}/history", headers=ana_token).json["events"]
    assert history[0]["round"] == 1 and history[0]["age"] == 1  # `age`: the deprecated name of `round`
    assert any(e["type"] == "my-bid" for e in history) and history[-1]["type"] == "game-over"
    queue = client.put(f"{url}/queue", json={"turns": "bid 1"}, headers=ana_token)
    assert queue.status_code == 422 and "takes no orders queued ahead" in queue.json["message"]
    assert client.get(f"{url}/queue", headers=ana_token).status_code == 422


@pytest.mark.parametrize("body, field", [
    ({"game": "chess"}, "game"),
    ({"game": "duel", "bots": ["genius"]}, "bots"),
    ({"game": "duel", "deadlines": {"hours": {"power": 5}}}, "deadlines"),
    ({"game": "duel", "options": {"rounds": [1]}}, "options"),
])
def test_a_game_is_checked_against_the_chosen_game(client, ana_token, session, body, field):
    answer = client.post("/api/games", headers=ana_token, json={"title": "T", "players": 2, **body})
    assert answer.status_code == 422 and field in answer.json["fields"], answer.json
    assert session.scalar(select(Game)) is None


@pytest.mark.parametrize("body, message", [
    ({"board": "default"}, "Duel (test game) has no setup choice 'board'"),
    ({"options": {"rounds": 12}}, "option rounds must be a whole number from 1 to 9"),
])
def test_the_game_refuses_what_it_does_not_take(client, ana_token, session, body, message):
    answer = client.post("/api/games", headers=ana_token, json={"title": "T", "game": "duel", "players": 2, **body})
    assert answer.status_code == 422 and message in answer.json["message"], answer.json
    assert session.scalar(select(Game)) is None


def test_the_openapi_document_describes_every_games_orders(client):
    document = client.get("/api/openapi.json").json
    orders = document["paths"]["/api/games/{game_id}/orders"]["post"]["description"]
    assert "Duel (test game) (`duel`): secret bid: `bid N`; token pick: `pick N`." in orders
    assert "development turn: `place T [eagle T] [move A to B]`" in orders
    queue = document["paths"]["/api/games/{game_id}/queue"]["put"]["description"]
    assert "development turn" in queue and "duel" not in queue
    game = document["components"]["schemas"]["GameCreate"]["properties"]["game"]
    assert game["enum"] == engine.game_names() and {"aztlan", "duel"} <= set(game["enum"])
    assert game["default"] == "aztlan"
