"""Replacing a leaked reply address (pbem/services/seat_address.py) from the game page and the
API: only the seat's player may, the old address is then refused with one short answer and
nothing changed, and the new one takes orders.  Mail goes over real SMTP both ways."""
from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from gateway_helpers import DOMAIN, body, inbound_rows, mail_and_wait, snapshot
from pbem.outbox.seat_tokens import seat_reply_address
from pbem.outbox.models import SeatToken
from pbem.outbox.settings import load
from pbem.outbox.tokens import reply_address
from pbem.services import accounts, lobby
from pbem.services.state import game_state
from service_helpers import form_with, make_game, make_user, web_sign_in

ANA, BO, EVE = "ana@example.org", "bo@example.org", "eve@example.org"
REPLACED = "This reply address was replaced; use the one in your latest mail"


@pytest.fixture
def table(app: Any, session: Session) -> dict[str, Any]:
    """Ana and Bo seated with a bot, Eve not seated; each with a signed-in browser and an API token."""
    people = {address: make_user(session, address, address.split("@")[0].title()) for address in (ANA, BO, EVE)}
    game = make_game(session, people[ANA], bots=("heuristic",), invites=[BO], seed=5)
    lobby.join_game(session, game.id, people[BO])
    session.expire_all()
    seats = {address: next((s for s in game.seats if s.user_id == user.id), None) for address, user in people.items()}
    addresses = {a: seat_reply_address(session, s, load(app.config)) for a, s in seats.items() if s is not None}
    session.commit()
    clients = {}
    for address in people:
        clients[address] = app.test_client()
        web_sign_in(clients[address], app, address)
    tokens = {a: {"Authorization": f"Bearer {accounts.create_api_token(session, u, 't')[1]}"} for a, u in people.items()}
    card = game_state(session, game).view(seats[ANA].name)["me"]["power_left"][0]
    return {"game_id": game.id, "page": f"/games/{game.id}", "api": f"/api/games/{game.id}/reply-address",
            "addresses": addresses, "clients": clients, "tokens": tokens, "order": f"card {card}"}


def _live_tokens(session: Session, game_id: int) -> list[str]:
    """The game's working reply addresses."""
    session.expire_all()
    return sorted(reply_address(token, domain=DOMAIN) for token in session.scalars(
        select(SeatToken.token).where(SeatToken.game_id == game_id, SeatToken.revoked_at.is_(None))))


def test_the_owner_replaces_the_address_on_the_game_page(table: dict[str, Any], session: Session, gateway: Any,
                                                        sink: Any) -> None:
    ana, old = table["clients"][ANA], table["addresses"][ANA]
    page = ana.get(table["page"]).get_data(as_text=True)
    assert old in page and "Copy this address" in page and table["addresses"][BO] not in page
    form = form_with(ana.get(table["page"]).data, f"{table['page']}/reply-address")
    done = ana.post(form.action, data=form.data(), follow_redirects=True).get_data(as_text=True)
    assert old not in done
    new = next(line.strip() for line in body(sink.to(ANA)[-1]).splitlines() if line.strip().startswith("orders+"))
    assert new != old and new in done and sink.to(ANA)[-1]["Reply-To"] == new
    assert old not in body(sink.to(ANA)[-1])
    assert _live_tokens(session, table["game_id"]) == sorted([new, table["addresses"][BO]])

    # The old address: refused, one short answer (not again), nothing changed in the game.
    before = snapshot(session, table["game_id"])
    for _ in range(2):
        mail_and_wait(gateway, ANA, old, table["order"])
        assert (inbound_rows(session)[-1].status, inbound_rows(session)[-1].reason) == ("rejected", "replaced_token")
    answers = [m for m in sink.to(ANA) if m["In-Reply-To"]]
    assert len(answers) == 1 and REPLACED in body(answers[0])
    assert snapshot(session, table["game_id"]) == before

    # Anyone else writing to the old address learns nothing of it.
    eves = mail_and_wait(gateway, EVE, old, table["order"])
    assert inbound_rows(session)[-1].reason == "unknown_token"
    assert REPLACED not in body(sink.replies_to(eves)[0])

    # The new address takes orders.
    message_id = mail_and_wait(gateway, ANA, new, table["order"])
    assert (inbound_rows(session)[-1].status, inbound_rows(session)[-1].reason) == ("processed", "ok")
    assert "Accepted" in body(sink.replies_to(message_id)[0])
    assert snapshot(session, table["game_id"]) != before


def test_the_owner_replaces_the_address_through_the_api(table: dict[str, Any], session: Session,
                                                        gateway: Any, sink: Any) -> None:
    client, headers, old = table["clients"][ANA], table["tokens"][ANA], table["addresses"][ANA]
    assert client.get(table["api"], headers=headers).json == {"address": old}
    answer = client.post(table["api"], headers=headers)
    assert answer.status_code == 200
    new = answer.json["address"]
    assert new != old and client.get(table["api"], headers=headers).json == {"address": new}
    assert new in body(sink.to(ANA)[-1])
    message_id = mail_and_wait(gateway, ANA, new, "STATUS")
    assert "Waiting for" in body(sink.replies_to(message_id)[0])
    mail_and_wait(gateway, ANA, old, "STATUS")
    assert inbound_rows(session)[-1].reason == "replaced_token"
    spec = client.get("/api/openapi.json").json
    assert set(spec["paths"]["/api/games/{game_id}/reply-address"]) == {"get", "post"}
    assert "ReplyAddress" in spec["components"]["schemas"]


def test_only_the_seat_owner_sees_or_replaces_it(app: Any, table: dict[str, Any], session: Session) -> None:
    eve, anonymous = table["clients"][EVE], app.test_client()
    live = _live_tokens(session, table["game_id"])
    # Eve has no seat: the page shows no address, and she may neither read nor replace one.
    assert "orders+" not in eve.get(table["page"]).get_data(as_text=True)
    token = form_with(eve.get("/profile").data, "/profile").data()["csrf_token"]
    assert eve.post(f"{table['page']}/reply-address", data={"csrf_token": token}).status_code == 403
    assert eve.get(table["api"], headers=table["tokens"][EVE]).status_code == 403
    assert eve.post(table["api"], headers=table["tokens"][EVE]).status_code == 403
    assert anonymous.post(table["api"]).status_code == 401
    assert anonymous.post(f"{table['page']}/reply-address").status_code in (302, 400)
    assert table["clients"][ANA].post(f"{table['page']}/reply-address").status_code == 400  # no CSRF token
    assert _live_tokens(session, table["game_id"]) == live
    # Bo replacing his own address leaves Ana's working, and his answer is only his.
    answer = table["clients"][BO].post(table["api"], headers=table["tokens"][BO]).json["address"]
    now_live = _live_tokens(session, table["game_id"])
    assert table["addresses"][ANA] in now_live and answer in now_live
    assert table["addresses"][BO] not in now_live and len(now_live) == 2


def test_nothing_to_replace_when_the_game_is_not_running(app: Any, session: Session) -> None:
    ana = make_user(session, ANA, "Ana")
    game = make_game(session, ana, bots=(), invites=[BO], seed=5)  # waits for Bo: still open
    client = app.test_client()
    headers = {"Authorization": f"Bearer {accounts.create_api_token(session, ana, 't')[1]}"}
    answer = client.post(f"/api/games/{game.id}/reply-address", headers=headers)
    assert answer.status_code in (403, 409)
    assert session.scalar(select(SeatToken.id)) is None
