"""The application layer's one path for an order: parse, check, commit, acknowledge, advance."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from engine.records import replay
from pbem.models import Game, OrderLogEntry, PendingOrder
from pbem.services import lobby, play
from pbem.services.advance import advance
from pbem.services.errors import Conflict, Forbidden, OrderRejected, StaleGame
from pbem.services.locking import bump_version
from pbem.services.state import clear_cache, game_state, log_lines
from pbem.testing import first_legal_order
from service_helpers import make_game


def count(session, model, game_id):
    return session.scalar(select(func.count()).select_from(model).where(model.game_id == game_id))


def my_decision(session, game, user):
    return play.game_view(session, game, user).view["me"]["decisions"]


def cards(session, game, user):
    return my_decision(session, game, user)[0]["options"]["cards"]


def play_until(session, game, user, kind):
    """Play first legal orders for `user` until they owe a decision of `kind`."""
    for _ in range(200):
        decisions = my_decision(session, game, user)
        if decisions and decisions[0]["kind"] == kind:
            return decisions[0]
        play.submit_for_user(session, game.id, user, first_legal_order(decisions[0]), channel="api")
    raise AssertionError(f"never asked for {kind}")


def two_humans(session, ana, bo):
    """A 3-player game: Ana, Bo and a heuristic bot, started."""
    game = make_game(session, ana, bots=("heuristic",), invites=["bo@example.com"])
    lobby.join_game(session, game.id, bo)
    session.refresh(game)
    assert game.status == Game.ACTIVE
    return game


def test_a_full_game_starts_at_once_and_waits_for_the_person(session, ana):
    game = make_game(session, ana)
    assert game.status == Game.ACTIVE
    assert sorted(s.name for s in game.seats) == sorted(game_state(session, game).seats)
    mine = next(s for s in game.seats if s.user_id == ana.id)
    assert mine.waiting and not any(s.waiting for s in game.seats if s.bot)
    # The bots' secret card choices are not applied (nor logged) before Ana chooses.
    assert count(session, OrderLogEntry, game.id) == 0
    assert my_decision(session, game, ana)[0]["kind"] == "power"


def test_a_secret_choice_waits_for_everyone_and_is_then_applied_together(session, ana):
    game = make_game(session, ana)
    card = my_decision(session, game, ana)[0]["options"]["cards"][-1]
    receipt = play.submit_for_user(session, game.id, ana, f"Card {card}", channel="web")
    assert receipt.orders == [f"card {card}"] and receipt.applied
    lines = log_lines(session, game.id)
    assert sorted(line.split(":")[0] for line in lines[:3]) == sorted(game_state(session, game).seats)
    assert all(": card " in line for line in lines[:3]) and f": card {card}" in "".join(lines[:3])
    # The bots before Ana in turn order then play their development turns at once.
    assert all(": place " in line for line in lines[3:])
    assert count(session, PendingOrder, game.id) == 0
    assert my_decision(session, game, ana)[0]["kind"] == "turn"


def test_a_secret_choice_stays_pending_and_can_be_replaced(session, ana, bo):
    game = two_humans(session, ana, bo)
    one, two = cards(session, game, ana)[:2]
    first = play.submit_for_user(session, game.id, ana, f"card {one}", channel="web")
    assert first.pending == [f"card {one}"] and "replace" in first.message
    second = play.submit_for_user(session, game.id, ana, f"card {two}", channel="api")
    assert second.pending == [f"card {two}"]
    assert [row.text for row in session.scalars(select(PendingOrder))] == [f"card {two}"]
    # Bo sees that Ana's orders are in, but not which card, and nothing is applied yet.
    seen = play.game_view(session, game, bo)
    ana_seat = play.seat_of(game, ana).name
    bot_seat = next(seat.name for seat in game.seats if seat.bot)
    assert seen.submitted == sorted([ana_seat, bot_seat]) and seen.my_pending == []
    ana_public = next(seat for seat in seen.view["seats"] if seat["seat"] == ana_seat)
    assert ana_public["power_card"] is None and not ana_public["has_chosen"]
    assert count(session, OrderLogEntry, game.id) == 0
    play.submit_for_user(session, game.id, bo, f"card {one}", channel="api")
    log = log_lines(session, game.id)
    assert f"{ana_seat}: card {two}" in log and len([line for line in log if ": card" in line]) == 3


def test_an_order_that_does_not_parse_is_refused_with_the_grammar_message(session, ana):
    game = make_game(session, ana)
    with pytest.raises(OrderRejected) as caught:
        play.submit_for_user(session, game.id, ana, "crad 7", channel="api")
    assert "expected an order" in caught.value.message and caught.value.expected
    assert count(session, PendingOrder, game.id) == 0
    session.refresh(game)
    assert game.version == 1


def test_an_illegal_order_is_refused_with_the_engines_message_and_nothing_stored(session, ana):
    game = make_game(session, ana)
    with pytest.raises(OrderRejected, match="no power card 42"):
        play.submit_for_user(session, game.id, ana, "card 42", channel="api")
    with pytest.raises(OrderRejected, match="power card"):  # placing belongs to a later phase
        play.submit_for_user(session, game.id, ana, "place 1", channel="api")
    with pytest.raises(OrderRejected, match="no orders"):
        play.submit_for_user(session, game.id, ana, "# only a comment", channel="api")
    assert count(session, PendingOrder, game.id) == 0


def test_orders_out_of_turn_are_refused(session, ana, bo):
    game = two_humans(session, ana, bo)
    for user in (ana, bo):
        play.submit_for_user(session, game.id, user, f"card {cards(session, game, user)[0]}", channel="api")
    turn = game_state(session, game).decisions()[0]
    waiting_user, other = (ana, bo) if turn.seat == play.seat_of(game, ana).name else (bo, ana)
    with pytest.raises(OrderRejected, match="not your development turn"):
        play.submit_for_user(session, game.id, other, "place 1", channel="api")
    play.submit_for_user(session, game.id, waiting_user, "place 1", channel="api")


def test_nobody_submits_for_a_game_they_do_not_sit_in(session, ana, bo):
    game = make_game(session, ana)
    with pytest.raises(Forbidden):
        play.submit_for_user(session, game.id, bo, "card 4", channel="api")


def test_leftover_orders_wait_for_the_seats_next_turn(session, ana, bo):
    game = two_humans(session, ana, bo)
    for user in (ana, bo):
        play.submit_for_user(session, game.id, user, f"card {cards(session, game, user)[0]}", channel="api")
    first = game_state(session, game).decisions()[0].seat
    mover, other = (ana, bo) if first == play.seat_of(game, ana).name else (bo, ana)
    receipt = play.submit_for_user(session, game.id, mover, "place 1\nplace 2", channel="api")
    assert receipt.orders == ["place 1", "place 2"]
    # After "place 1" the game waits for someone else; "place 2" waits for the mover's next turn.
    assert receipt.pending == ["place 2"]
    for _ in range(3):
        if not count(session, PendingOrder, game.id):
            break
        decision = my_decision(session, game, other)
        play.submit_for_user(session, game.id, other, first_legal_order(decision[0]), channel="api")
    mover_seat = play.seat_of(game, mover).name
    assert f"{mover_seat}: place 2" in log_lines(session, game.id)
    assert count(session, PendingOrder, game.id) == 0


def test_advance_twice_changes_nothing_the_second_time(session, ana):
    game = make_game(session, ana)
    play.submit_for_user(session, game.id, ana, f"card {cards(session, game, ana)[0]}", channel="api")
    session.refresh(game)
    before = (game.version, log_lines(session, game.id))
    again = advance(session, game.id)
    assert again.applied == []
    session.refresh(game)
    assert (game.version, log_lines(session, game.id)) == before


def test_the_order_log_and_seed_rebuild_the_state(session, ana):
    game = make_game(session, ana)
    for _ in range(12):
        decision = my_decision(session, game, ana)[0]
        play.submit_for_user(session, game.id, ana, first_legal_order(decision), channel="api")
    session.refresh(game)
    cached = game_state(session, game)
    clear_cache()
    rebuilt = replay({"game": "aztlan", **game.setup, "orders": log_lines(session, game.id)})
    assert rebuilt.view(None) == cached.view(None)
    assert game_state(session, game).view(None) == cached.view(None)


def test_a_stale_version_is_refused(session, ana):
    game = make_game(session, ana)
    version = game.version  # this session has read the game...
    with Session(session.get_bind()) as other:  # ...when another writer changes it
        bump_version(other, other.get(Game, game.id))
        other.commit()
    assert game.version == version
    with pytest.raises(StaleGame):
        bump_version(session, game)
    assert session.get(Game, game.id).version == version + 1


def test_a_whole_game_ends_with_a_result_and_a_record(session, ana):
    game = make_game(session, ana, seed=11)
    with pytest.raises(Conflict):
        play.finished_record(session, game)
    for _ in range(200):
        session.refresh(game)
        if game.status == Game.FINISHED:
            break
        decision = my_decision(session, game, ana)[0]
        play.submit_for_user(session, game.id, ana, first_legal_order(decision), channel="api")
    assert game.status == Game.FINISHED and game.finished_at is not None
    assert game.result["winner"] in game_state(session, game).seats
    record = play.finished_record(session, game)
    assert record["seed"] == 11 and replay(record).result() == game.result
    with pytest.raises(Conflict, match="over"):
        play.submit_for_user(session, game.id, ana, "score", channel="api")
    assert not any(seat.waiting for seat in game.seats)


def test_simultaneous_submissions_from_two_people_are_applied_exactly_once(session, ana, bo):
    """Two requests at the same moment: the lock (or SQLite's write lock) and the version
    compare-and-set make one of them apply the whole decision, once."""
    import threading
    game = two_humans(session, ana, bo)
    engine = session.get_bind()
    barrier, errors = threading.Barrier(2), []

    def choose(user_id):
        with Session(engine) as own:
            user = own.get(type(ana), user_id)
            card = cards(own, own.get(Game, game.id), user)[0]
            barrier.wait()
            try:
                play.submit_for_user(own, game.id, user, f"card {card}", channel="api")
            except Exception as error:  # reported below; a thread cannot fail the test itself
                errors.append(error)

    threads = [threading.Thread(target=choose, args=(user.id,)) for user in (ana, bo)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    log = log_lines(session, game.id)
    assert len([line for line in log if ": card " in line]) == 3
    assert count(session, PendingOrder, game.id) == 0
    seqs = session.scalars(select(OrderLogEntry.seq).where(OrderLogEntry.game_id == game.id)
                           .order_by(OrderLogEntry.seq)).all()
    assert seqs == list(range(1, len(seqs) + 1))


def test_a_queued_order_refused_when_its_turn_comes_is_dropped_and_reported(session, ana, bo):
    game = two_humans(session, ana, bo)
    for user in (ana, bo):
        play.submit_for_user(session, game.id, user, f"card {cards(session, game, user)[0]}", channel="api")
    first = game_state(session, session.get(Game, game.id)).decisions()[0].seat
    mover, other = (ana, bo) if first == play.seat_of(game, ana).name else (bo, ana)
    # The second order is only parsed now (it belongs to a later turn) and is illegal then.
    receipt = play.submit_for_user(session, game.id, mover, "place 1\nplace 2 move 30 to 29", channel="api")
    assert receipt.pending == ["place 2 move 30 to 29"]
    while my_decision(session, game, other):
        play.submit_for_user(session, game.id, other, first_legal_order(my_decision(session, game, other)[0]),
                             channel="api")
        if my_decision(session, game, mover):
            break
    session.expire_all()
    seat = play.seat_of(session.get(Game, game.id), mover)
    assert "no pawn in 30" in seat.last_error and seat.waiting
    assert count(session, PendingOrder, game.id) == 0
    assert my_decision(session, game, mover)[0]["kind"] == "turn"


def test_a_view_read_while_the_game_advances_is_of_one_moment(session, ana, bo, monkeypatch):
    """Ana's bid is pending; while her view is being read (after the state, before her pending
    orders) Bo's bid completes the round's bids and the game advances.  The view must not say
    she still owes a bid with nothing pending: a client would send it again, and be refused."""
    game = make_game(session, ana, game="duel", players=2, bots=(), invites=["bo@example.com"], seed=3)
    lobby.join_game(session, game.id, bo)
    session.refresh(game)
    play.submit_for_user(session, game.id, ana, "bid 2", channel="api")
    assert play.game_view(session, game, ana).my_pending == ["bid 2"]
    read_state, bids = play.game_state, []

    def state_then_bo_bids(*args, **kwargs):
        state = read_state(*args, **kwargs)
        if not bids:  # another process, at that very moment (once: its own submission reads the state too)
            bids.append("bid 3")
            with Session(session.get_bind()) as other:
                bids.append(play.submit_for_user(other, game.id, other.get(type(bo), bo.id), bids[0],
                                                 channel="web"))
        return state
    monkeypatch.setattr(play, "game_state", state_then_bo_bids)

    seen = play.game_view(session, game, ana)

    assert bids[1].applied  # both bids applied, the picks begun
    assert (seen.round, seen.phase, seen.view["phase"], seen.my_pending) == (1, "picking", "picking", [])
    assert [d["kind"] for d in seen.view["me"]["decisions"]] in ([], ["pick"])
    assert game.version == session.scalar(select(Game.version).where(Game.id == game.id))


def test_an_order_and_its_advance_go_in_one_commit(session, ana):
    """`within` (the mail gateway, in a worker): the advance applies the order in the order's
    own transaction; the bots' secret choices with Ana's, nothing left pending."""
    game = make_game(session, ana)
    seat = next(s for s in game.seats if s.user_id == ana.id)
    order = first_legal_order(my_decision(session, game, ana)[0])
    receipt = play.submit_orders(session, seat, order, channel="email", user_id=ana.id, locked=game_locked(session, game),
                                 within=True)
    assert receipt.applied and count(session, PendingOrder, game.id) == 0
    assert logged(session, game.id, seat.name) == [order]


def test_an_order_whose_advance_fails_is_kept_and_advanced_as_usual(session, ana, monkeypatch):
    """A failure of the advance that goes with the order (a bug in a bot) costs the player
    nothing: the order is committed alone, then advanced the usual way."""
    from pbem.services import dispatch
    real = dispatch.advance

    def failing_within(session, game_id, *, commit=True, **kwargs):
        if not commit:
            raise RuntimeError("a bug in a bot")
        return real(session, game_id, commit=commit, **kwargs)

    monkeypatch.setattr(dispatch, "advance", failing_within)
    game = make_game(session, ana)
    seat = next(s for s in game.seats if s.user_id == ana.id)
    order = first_legal_order(my_decision(session, game, ana)[0])
    receipt = play.submit_orders(session, seat, order, channel="email", user_id=ana.id, locked=game_locked(session, game),
                                 within=True)
    assert receipt.orders == [order] and receipt.applied  # the ordinary advance (inline here) applied it
    assert logged(session, game.id, seat.name) == [order]


def game_locked(session, game):
    """The game locked as the mail gateway locks it before an order (pbem/mail/senders.py)."""
    from pbem.services.locking import lock_game
    return lock_game(session, game.id, people=True, pending=True, queued=True)


def logged(session, game_id, seat_name):
    return list(session.scalars(select(OrderLogEntry.text).where(OrderLogEntry.game_id == game_id,
                                                                 OrderLogEntry.seat == seat_name)))
