"""Duel, the test game with no presentation of its own, by mail (over real SMTP): BOARD,
HAND, HISTORY and HELP answer from the plain fallbacks in the game's own words, QUEUE is
refused (Duel queues nothing ahead), and no answer tells a seat another seat's secret bid."""
from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy.orm import Session

from gateway_helpers import ask, body, seat_address, snapshot
from pbem.models import Game
from pbem.services import lobby
from service_helpers import make_game, make_user

ANA = "ana@example.org"
BO = "bo@example.org"


@pytest.fixture
def duel(app: Any, session: Session) -> dict[str, Any]:
    """Ana against a bot, Ana owing her first bid."""
    ana = make_user(session, ANA, "Ana")
    game = make_game(session, ana, game="duel", players=2, bots=("heuristic",), seed=5)
    seat = next(s.name for s in game.seats if s.user_id == ana.id)
    return {"game_id": game.id, "seat": seat, "address": seat_address(session, app.config, game, ana.id)}


def test_board_hand_history_and_help_answer_in_the_games_words(duel: dict[str, Any], gateway: Any,
                                                               sink: Any) -> None:
    reply = ask(gateway, sink, ANA, duel["address"], "BOARD\nHAND\nHISTORY\nHELP")
    assert not reply.is_multipart()  # Duel draws no picture: the text says it all
    text = body(reply)
    assert f"Board of Test game (game {duel['game_id']}), round 1, bidding:" in text
    assert re.search(r"  row: \d, \d, \d\n", text) and f"  Ana ({duel['seat']}): coins 10, spent 0" in text
    assert "Nothing in your hand." in text
    assert "What happened:\n  round 1: Round." in text
    assert "STATUS" in text and "VACATION" in text and "QUEUE" not in text and "CANCEL" not in text
    assert "You are asked to bid for this round's tokens: bid N (1 to 5 of your coins)." in text
    assert not re.search(r"\bage\b|power card|territor|pawn", text, re.IGNORECASE)


def test_a_bid_by_mail_then_the_hand_holds_it(duel: dict[str, Any], gateway: Any, sink: Any) -> None:
    text = body(ask(gateway, sink, ANA, duel["address"], "bid 2\nHAND\nHISTORY"))
    assert text.startswith(f"Accepted for Ana ({duel['seat']}) in game {duel['game_id']} (round 1, picking):")
    assert "bid: 2" in text  # the bot bid at once: both bids are revealed
    assert "  round 1: Reveal." in text


def test_queue_is_refused_with_a_reason(duel: dict[str, Any], session: Session, gateway: Any, sink: Any) -> None:
    before = snapshot(session, duel["game_id"])
    text = body(ask(gateway, sink, ANA, duel["address"], "QUEUE\nbid 1"))
    assert text.startswith("Nothing was carried out")
    assert "Duel (test game) takes no orders queued ahead" in text
    assert snapshot(session, duel["game_id"]) == before
    text = body(ask(gateway, sink, ANA, duel["address"], "CANCEL"))
    assert "takes no orders queued ahead" in text


def test_no_answer_tells_a_seat_another_seats_secret_bid(app: Any, session: Session, gateway: Any,
                                                         sink: Any) -> None:
    """Twin games, the same but for Ana's pending bid: Bo is told the same in both."""
    ana, bo = make_user(session, ANA, "Ana"), make_user(session, BO, "Bo")
    told = []
    for n, coins in ((1, 4), (2, 2)):
        game = make_game(session, ana, title=f"Twin {n}", game="duel", players=2, bots=(), invites=[BO], seed=3)
        lobby.join_game(session, game.id, bo)
        game = session.get(Game, game.id)
        ana_address, bo_address = (seat_address(session, app.config, game, user.id) for user in (ana, bo))
        mine = body(ask(gateway, sink, ANA, ana_address, f"bid {coins}\nSTATUS"))
        assert f"Your orders waiting: bid {coins}." in mine  # Ana is told her own
        text = body(ask(gateway, sink, BO, bo_address, "BOARD\nHAND\nHISTORY\nHELP"))
        told.append(text.replace(f"Twin {n} (game {game.id})", "Twin (game N)"))
    assert told[0] == told[1] and "Board of Twin (game N), round 1, bidding:" in told[0]
