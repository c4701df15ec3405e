"""The JSON API: a whole 3-player game (one person, two bots), errors, and the OpenAPI document."""
from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from pbem.models import Game, OrderLogEntry
from pbem.services import accounts
from pbem.testing import first_legal_order
from service_helpers import make_user


@pytest.fixture
def ana_token(session):
    ana = make_user(session, "ana@example.com", "Ana")
    return {"Authorization": f"Bearer {accounts.create_api_token(session, ana, 'test')[1]}"}


def create(client, headers, **body):
    payload = {"title": "API game", "players": 3, "bots": ["heuristic", "random"], **body}
    return client.post("/api/games", json=payload, headers=headers)


def test_a_whole_game_through_the_api(client, ana_token, session):
    created = create(client, ana_token)
    assert created.status_code == 201
    game = created.json
    assert game["status"] == "active"
    assert [s["player"] for s in game["seats"]] == [
        "Ana", f"{game['seats'][1]['name']} bot (heuristic)", f"{game['seats'][2]['name']} bot (random)"]
    assert "seed" not in str(game) and "setup" not in game
    url = f"/api/games/{game['id']}"
    kinds, orders = set(), 0
    while True:
        seen = client.get(f"{url}/view", headers=ana_token).json
        if seen["game"]["status"] == "finished":
            break
        decision = seen["view"]["me"]["decisions"][0]
        kinds.add(decision["kind"])
        answer = client.post(f"{url}/orders", json={"orders": first_legal_order(decision)}, headers=ana_token)
        assert answer.status_code == 201, answer.json
        assert answer.json["applied"] and answer.json["seat"] == seen["seat"]
        orders += 1
        assert orders < 300
    assert {"power", "turn"} <= kinds
    result = seen["view"]["result"]
    assert result["winner"] in result["scores"]
    history = client.get(f"{url}/history", headers=ana_token).json["events"]
    assert history[0]["text"] == "Age 1 begins." and history[-1]["type"] == "game-over"
    assert any(e["type"] == "my-card" for e in history)  # Ana sees her own secret events
    record = client.get(f"{url}/record").json
    logged = session.scalars(select(OrderLogEntry.text).order_by(OrderLogEntry.seq)).all()
    assert [line.split(": ", 1)[1] for line in record["orders"]] == logged
    assert record["seed"] == session.scalar(select(Game.setup))["seed"]
    listed = client.get("/api/games?list=finished").json["games"]
    assert [g["id"] for g in listed] == [game["id"]]


def test_create_and_join_through_the_api(client, ana_token, session):
    bo = make_user(session, "bo@example.com", "Bo")
    bo_token = {"Authorization": f"Bearer {accounts.create_api_token(session, bo, 'b')[1]}"}
    game = create(client, ana_token, players=2, bots=[]).json
    assert game["status"] == "open"
    assert [g["id"] for g in client.get("/api/games?list=open", headers=bo_token).json["games"]] == [game["id"]]
    assert client.get("/api/games?list=open", headers=ana_token).json["games"] == []  # already seated
    joined = client.post(f"/api/games/{game['id']}/join", headers=bo_token)
    assert joined.status_code == 200 and joined.json["status"] == "active"
    assert {s["name"] for s in joined.json["seats"]} <= {"quetzal", "coyote", "serpent", "ocelot"}
    # The seat's old field name was answered one release more, and is gone now (docs/api.md).
    assert all("tribe" not in s for s in joined.json["seats"])
    mine = client.get("/api/games?list=waiting", headers=bo_token).json["games"]
    assert [g["id"] for g in mine] == [game["id"]]
    again = client.post(f"/api/games/{game['id']}/join", headers=bo_token)
    assert again.status_code == 409 and again.json["error"] == "conflict"


@pytest.mark.parametrize("body, field", [
    ({"title": ""}, "title"),
    ({"players": 7}, "players"),
    ({"bots": ["genius"]}, "bots"),
    ({"invites": ["not-an-address"]}, "invites"),
    ({"deadlines": {"hours": {"turn": 0}}}, "deadlines"),
])
def test_invalid_games_are_refused_field_by_field(client, ana_token, body, field):
    answer = create(client, ana_token, **body)
    assert answer.status_code == 422 and field in answer.json["fields"]


def test_refused_orders_say_why(client, ana_token):
    game = create(client, ana_token).json
    url = f"/api/games/{game['id']}/orders"
    parse = client.post(url, json={"orders": "place"}, headers=ana_token)
    assert parse.status_code == 422 and parse.json["error"] == "order-rejected"
    assert "territory" in parse.json["expected"]
    illegal = client.post(url, json={"orders": "card 99"}, headers=ana_token)
    assert illegal.status_code == 422 and "no power card 99" in illegal.json["message"]
    assert client.post(url, data="card 4", headers=ana_token).status_code == 422  # not JSON
    assert client.post("/api/games/999/orders", json={"orders": "card 4"}, headers=ana_token).status_code == 404


def test_authentication_is_by_bearer_token_only(app, client, ana_token):
    assert client.get("/api/me").status_code == 401
    bad = client.get("/api/me", headers={"Authorization": "Bearer pbem_nope"})
    assert bad.status_code == 401 and bad.headers["WWW-Authenticate"].startswith("Bearer")
    assert client.get("/api/me", headers={"Authorization": "Basic YTpi"}).status_code == 401
    assert client.get("/api/me", headers=ana_token).json["addresses"] == [
        {"address": "ana@example.com", "is_primary": True}]
    assert client.post("/api/games", json={"title": "x"}).status_code == 401


def test_orders_are_rate_limited(app, client, ana_token):
    game = create(client, ana_token).json
    url = f"/api/games/{game['id']}/orders"
    app.config["PBEM_ORDER_LIMIT"] = "3 per minute"
    try:
        answers = [client.post(url, json={"orders": "card 99"}, headers=ana_token) for _ in range(4)]
    finally:
        app.config["PBEM_ORDER_LIMIT"] = "1000 per minute"
    assert [answer.status_code for answer in answers] == [422, 422, 422, 429]
    assert answers[-1].json["error"] == "rate-limited" and "Retry-After" in answers[-1].headers


def test_the_openapi_document_describes_every_endpoint(client):
    document = client.get("/api/openapi.json").json
    assert document["openapi"].startswith("3.")
    paths = document["paths"]
    for path, method in [("/api/games", "get"), ("/api/games", "post"), ("/api/games/{game_id}/join", "post"),
                         ("/api/games/{game_id}/view", "get"), ("/api/games/{game_id}/orders", "post"),
                         ("/api/games/{game_id}/history", "get"), ("/api/games/{game_id}/record", "get")]:
        assert method in paths[path], (path, method)
    schemas = document["components"]["schemas"]
    assert {"title", "players", "bots", "invites"} <= set(schemas["GameCreate"]["properties"])
    assert schemas["Orders"]["required"] == ["orders"]
    seat = schemas["Seat"]["properties"]
    assert "deprecated" not in seat["name"] and set(seat) == {"position", "name", "player", "bot", "waiting"}
    assert document["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
    # Every route of the API blueprint is documented.
    rules = {re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", r.rule) for r in client.application.url_map.iter_rules()
             if r.endpoint.startswith("api.") and r.endpoint != "api.openapi"}
    assert rules == set(paths)


def test_the_order_limit_counts_per_person_not_per_address(app, client, ana_token, session):
    bo = make_user(session, "bo@example.com", "Bo")
    bo_token = {"Authorization": f"Bearer {accounts.create_api_token(session, bo, 'b')[1]}"}
    game = create(client, ana_token).json
    url = f"/api/games/{game['id']}/orders"
    app.config["PBEM_ORDER_LIMIT"] = "2 per minute"
    try:
        ana = [client.post(url, json={"orders": "card 99"}, headers=ana_token).status_code for _ in range(3)]
        bo_answer = client.post(url, json={"orders": "card 99"}, headers=bo_token).status_code
    finally:
        app.config["PBEM_ORDER_LIMIT"] = "1000 per minute"
    assert ana == [422, 422, 429] and bo_answer == 403  # Bo is not limited by Ana's requests
