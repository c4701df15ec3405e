"""Every endpoint that touches a seat refuses other people's requests and leaks nothing of
their hand, their secret choices, the seed or the order log."""
from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from pbem.models import Game, PendingOrder
from pbem.services import accounts, lobby, play
from pbem.services.state import game_state
from service_helpers import form_with, make_game, make_user, web_sign_in

SEED = 8123456789  # distinctive, to search for in answers


@pytest.fixture
def table(app, session):
    """Ana and Bo seated with a bot; Eve signed up but not seated.  Ana's secret card is in."""
    people = {name: make_user(session, f"{name}@example.com", name.title()) for name in ("ana", "bo", "eve")}
    game = make_game(session, people["ana"], bots=("heuristic",), invites=["bo@example.com"], seed=SEED)
    lobby.join_game(session, game.id, people["bo"])
    play.submit_for_user(session, game.id, people["ana"], "card 9", channel="web")
    tokens = {name: {"Authorization": f"Bearer {accounts.create_api_token(session, user, 't')[1]}"}
              for name, user in people.items()}
    clients = {}
    for name in people:
        clients[name] = app.test_client()
        web_sign_in(clients[name], app, f"{name}@example.com")
    clients["anonymous"] = app.test_client()
    session.expire_all()
    return {"game": session.get(Game, game.id), "users": people, "tokens": tokens, "clients": clients}


def pending(session):
    return session.scalars(select(PendingOrder.text)).all()


def test_nobody_submits_for_a_seat_that_is_not_theirs_on_the_web(table, session):
    game, eve, anonymous = table["game"], table["clients"]["eve"], table["clients"]["anonymous"]
    bo = table["clients"]["bo"]
    form = form_with(bo.get(f"/games/{game.id}").data, f"/games/{game.id}/orders", data_kind="power")
    # Eve posts a well-formed form with a valid CSRF token of her own session.
    eve_form = form_with(eve.get("/profile").data, "/profile")
    data = {**form.data(card="4"), "csrf_token": eve_form.data()["csrf_token"]}
    refused = eve.post(f"/games/{game.id}/orders", data=data)
    assert refused.status_code == 403 and b"no seat in this game" in refused.data
    assert anonymous.post(f"/games/{game.id}/orders", data=data).status_code in (302, 400)
    assert eve.post(f"/games/{game.id}/withdraw", data=data).status_code == 403
    assert pending(session) == ["card 9"]  # only Ana's secret choice


def test_a_seat_field_in_a_form_cannot_redirect_an_order_to_another_seat(table, session):
    game, bo = table["game"], table["clients"]["bo"]
    ana_seat = play.seat_of(game, table["users"]["ana"]).name
    bo_seat = play.seat_of(game, table["users"]["bo"]).name
    form = form_with(bo.get(f"/games/{game.id}").data, f"/games/{game.id}/orders", data_kind="power")
    bo.post(form.action, data=form.data(card="4", seat=ana_seat, name=ana_seat, seat_name=ana_seat))
    # Bo's card went to Bo's seat, Ana's choice stands, and with every choice in both applied.
    assert pending(session) == []
    session.expire_all()
    state = game_state(session, session.get(Game, game.id))
    assert f"{bo_seat}: card 4" in state.order_log() and f"{ana_seat}: card 9" in state.order_log()


def test_nobody_submits_for_another_seat_through_the_api(table, client, session):
    game = table["game"]
    url = f"/api/games/{game.id}/orders"
    assert client.post(url, json={"orders": "card 4"}, headers=table["tokens"]["eve"]).status_code == 403
    assert client.post(url, json={"orders": "card 4"}).status_code == 401
    assert client.post(url, json={"orders": "card 4"}, headers={"Authorization": "Bearer pbem_x"}).status_code == 401
    assert pending(session) == ["card 9"]


def test_other_readers_see_neither_the_secret_choice_nor_the_hand(table, client, session):
    game = table["game"]
    state = game_state(session, game)
    ana_seat = play.seat_of(game, table["users"]["ana"]).name
    for reader in ("bo", "eve", None):
        headers = table["tokens"][reader] if reader else {}
        answer = client.get(f"/api/games/{game.id}/view", headers=headers).json
        expected_seat = play.seat_of(game, table["users"]["bo"]).name if reader == "bo" else None
        assert answer["seat"] == expected_seat
        assert answer["view"] == state.view(expected_seat)  # exactly the engine's view for that reader
        assert answer["pending"] == [] and "card 9" not in str(answer)
        assert ana_seat in answer["submitted"]
        page = table["clients"][reader or "anonymous"].get(f"/games/{game.id}").data
        assert b"card 9" not in page and b"Your orders waiting" not in page
    own = client.get(f"/api/games/{game.id}/view", headers=table["tokens"]["ana"]).json
    assert own["pending"] == ["card 9"] and own["view"]["me"]["seat"] == ana_seat


def test_hands_and_chosen_cards_stay_with_their_seat_during_play(table, client, session):
    game, users = table["game"], table["users"]
    play.submit_for_user(session, game.id, users["bo"], "card 8", channel="api")
    session.expire_all()
    state = game_state(session, session.get(Game, game.id))
    ana_seat = play.seat_of(game, users["ana"]).name
    # Development: chosen cards are secret; each player sees only their own.
    assert state.view(None)["phase"] == "development"
    for reader, card in (("ana", 9), ("bo", 8)):
        seen = client.get(f"/api/games/{game.id}/view", headers=table["tokens"][reader]).json["view"]
        assert seen["me"]["power_card"] == card
        assert all(seat["power_card"] is None for seat in seen["seats"])
        events = client.get(f"/api/games/{game.id}/history", headers=table["tokens"][reader]).json["events"]
        mine = [e["data"]["card"] for e in events if e["type"] == "my-card"]
        assert mine == [card]
    for outsider in ("eve", None):
        headers = table["tokens"][outsider] if outsider else {}
        events = client.get(f"/api/games/{game.id}/history", headers=headers).json["events"]
        assert events and not [e for e in events if e["type"].startswith("my-")]
        seen = client.get(f"/api/games/{game.id}/view", headers=headers).json["view"]
        assert "me" not in seen
    bo_page = table["clients"]["bo"].get(f"/games/{game.id}").data.decode()
    # Bo's own card shows (a card that opens its meaning on a tap); Ana's is "chosen (hidden)".
    assert re.search(r'chosen this age: <details class="card-note"><summary[^>]*>8</summary>', bo_page)
    assert "chosen (hidden)" in bo_page and not re.search(r"card <details[^>]*><summary[^>]*>9<", bo_page)
    assert f"{ana_seat}" in bo_page


def test_the_seed_and_the_order_log_stay_secret_until_the_end(table, client):
    game = table["game"]
    seed = str(SEED).encode()
    for name in ("ana", "bo", "eve", "anonymous"):
        web = table["clients"][name]
        headers = table["tokens"].get(name, {})
        answers = [web.get(f"/games/{game.id}").data, web.get(f"/games/{game.id}/version").data, web.get("/").data]
        for path in ("", "/view", "/history"):
            answers.append(client.get(f"/api/games/{game.id}{path}", headers=headers).data)
        assert all(seed not in answer for answer in answers), name
        assert client.get(f"/api/games/{game.id}/record", headers=headers).status_code == 409
        assert web.get(f"/games/{game.id}/record.json").status_code == 409


def test_profile_and_token_actions_are_per_person(table, session):
    ana = table["users"]["ana"]
    token, _ = accounts.create_api_token(session, ana, "ana's")
    eve = table["clients"]["eve"]
    form = form_with(eve.get("/profile").data, "/profile/tokens")
    assert eve.post(f"/profile/tokens/{token.id}/revoke", data=form.data()).status_code == 404
    address_id = ana.addresses[0].id
    assert eve.post(f"/profile/addresses/{address_id}/remove", data=form.data()).status_code == 404
    session.expire_all()
    assert accounts.api_tokens(session, session.get(type(ana), ana.id))[0].revoked_at is None
