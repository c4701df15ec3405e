"""Orders that ride with a decision without answering it (an Azteca card given to play later,
an offer between two seats under 18.0's deal options) are secret to their seat, or to the
offer's two parties: they must not move the decision's deadline, which every reader sees, and a
seat must not push its own deadline back by giving them over and over (docs/deadlines.md)."""
from __future__ import annotations

from pbem.models import Game
from pbem.services import play
from pbem.testing import first_legal_order
from deadline_helpers import decisions, fresh, make_game


def azteca_with_deals(session, ana) -> Game:
    """Ana and two bots, the deal options on, played until Ana owes a decision in a game turn."""
    game = make_game(session, ana, game="azteca", players=3, bots=("random", "random"), seed=5,
                     options={"big_deal": "on", "pirogue_express": "on"}, deadlines={})
    for _ in range(200):
        game = fresh(session, game)
        owed = decisions(session, game, ana)
        assert owed, "the game waits for Ana"
        if "deal" in owed[0]["options"]:
            return game
        play.submit_for_user(session, game.id, ana, first_legal_order(owed[0], "azteca"), channel="api")
    raise AssertionError("Ana was never asked in a game turn")


def test_a_private_offer_and_its_withdrawal_leave_the_deadline_where_it_was(session, ana):
    game = azteca_with_deals(session, ana)
    before = (game.decision_seq, game.decision_at, game.deadline_at)
    assert game.deadline_at is not None
    other = next(seat.name for seat in game.seats if seat.user_id != ana.id)
    for text in (f"offer {other} nothing for 1 tributes", f"withdraw {other} 1"):
        receipt = play.submit_for_user(session, game.id, ana, text, channel="api")
        assert receipt.pending == []  # applied: the offer rode with the decision Ana still owes
        game = fresh(session, game)
        assert decisions(session, game, ana), "Ana still owes her decision"
        assert (game.decision_seq, game.decision_at, game.deadline_at) == before
