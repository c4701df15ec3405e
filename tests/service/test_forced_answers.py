"""Questions with a single legal answer: the service answers them for the seat, so they never
hold a game up, and it times them like an answer given at once, so how long a question takes
never tells the others what a hand holds (docs/deadlines.md, "Forced answers")."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import select

import engine
from engine.core import forced_order
from engine.records import replay
from pbem.models import Game, OrderLogEntry, PendingOrder
from pbem.services import advance as advance_module
from pbem.services import play
from pbem.services.advance import advance
from pbem.services.state import clear_cache, game_state, record
from service_helpers import make_game

SETTLE = 300  # seconds: the twin games' settle window
T0 = datetime(2030, 1, 7, 12, 0, tzinfo=timezone.utc)
SEED = 3  # Aztlán, four players: Ana's seat is answered battles, ties and a scoring with nothing to play
BOTS = ("heuristic", "heuristic", "random")
# The card that turns a forced answer into a real choice: Sacred Games for a battle, the Great
# Tlatoani for a tie, a blessing for a scoring.
CHOICE_CARDS = {"accept": "sacred-games", "tie": "tlatoani", "score": "mixcoatl"}


def person_answer(session, game, user):
    """What the person gives when asked: the heuristic bot's choice, as order text."""
    state = game_state(session, game)
    rules = engine.get_game(state.game)
    order = rules.make_bot("heuristic", f"person:{len(state.order_log())}").order(
        state, state.seats.index(my_seat(game, user).name))
    return state.order_text(order)


def my_seat(game, user):
    return next(seat for seat in game.seats if seat.user_id == user.id)


def while_running(session, game_id, steps):
    """(step, game, state) while the game runs, read afresh each time; an error if it has
    not ended after `steps`."""
    for step in range(steps):
        session.expire_all()
        game = session.get(Game, game_id)
        if game.status == Game.FINISHED:
            return
        yield step, game, game_state(session, game)
    raise AssertionError("the game did not end")


def log_rows(session, game_id):
    return session.execute(select(OrderLogEntry.seq, OrderLogEntry.seat, OrderLogEntry.text, OrderLogEntry.by)
                           .where(OrderLogEntry.game_id == game_id).order_by(OrderLogEntry.seq)).all()


@pytest.mark.parametrize("name", sorted(engine.games()))
def test_a_whole_game_asks_the_person_only_real_choices(session, ana, name):
    """Bots and one person who answers only what they are asked: every question with a single
    answer is answered for the person at once, the rest are real choices, and the order log
    holds the forced answers as orders like any other."""
    game = make_game(session, ana, game=name, players=4, bots=BOTS, seed=SEED)
    game_id, seat = game.id, my_seat(game, ana).name
    rules = engine.get_game(name)
    asked = 0
    for _, game, state in while_running(session, game_id, 2000):
        owed = [d for d in state.decisions() if d.seat == seat]
        assert owed and my_seat(game, ana).waiting, "the game waits only for the person"
        assert forced_order(rules, state, seat) is None, f"asked a forced question: {owed[0].kind}"
        play.submit_for_user(session, game_id, ana, person_answer(session, game, ana), channel="api")
        asked += 1
    rows = log_rows(session, game_id)
    forced = [row for row in rows if row.by == "forced"]
    assert asked and all(row.seat == seat for row in forced)
    assert not session.scalars(select(PendingOrder).where(PendingOrder.game_id == game_id)).all()
    # Each forced line was the seat's only answer when it was given; each of its others a choice.
    state = replay({**record(game, []), "orders": []})
    for row in rows:
        if row.seat == seat:
            assert (forced_order(rules, state, seat) == row.text) == (row.by == "forced"), row
        state.apply(row.seat, state.parse(row.text)[0])
    if name == "aztlan":
        assert {row.text.split()[0] for row in forced} == {"accept", "tie", "score"}


# ---- twin games: one hidden card apart --------------------------------------------------------

class Driver:
    """Plays one game through the service on a clock of its own: the person answers at the
    very moment a question is asked, and the service advances the game only when told (as a
    worker does: at once after an order, or when the settle window it answered closes).
    `schedule` notes, each time the game waits for nobody but the clock, the log's length,
    the time, when the decision began, its deadline and when its settle window closes."""

    def __init__(self, session, monkeypatch, game_id, user):
        self.session, self.monkeypatch, self.game_id, self.user = session, monkeypatch, game_id, user
        self.clock = T0
        self.schedule: list[tuple] = []

    def advance(self):
        self.monkeypatch.setattr(advance_module, "now", lambda: self.clock)
        return advance(self.session, self.game_id, at=self.clock)

    def play(self, answer):
        done = self.advance()
        for _ in range(3000):
            self.session.expire_all()
            game = self.session.get(Game, self.game_id)
            if game.status == Game.FINISHED:
                return
            if my_seat(game, self.user).waiting:
                text = answer(self.session, game)
                play.submit_for_user(self.session, self.game_id, self.user, text, channel="api")
                self.session.execute(PendingOrder.__table__.update()
                                     .where(PendingOrder.game_id == self.game_id).values(submitted_at=self.clock))
                self.session.commit()
            else:
                times = [None if t is None else (t - T0).total_seconds()
                         for t in (self.clock, game.decision_at, game.deadline_at, done.settle_until)]
                self.schedule.append((len(log_rows(self.session, self.game_id)), *times))
                assert done.settle_until is not None, "stuck: nobody owes and no window is open"
                self.clock = done.settle_until
            done = self.advance()
        raise AssertionError("the game did not end")


def _twin(session, ana, seed, deck):
    game = make_game(session, ana, game="aztlan", players=4, bots=BOTS, seed=seed,
                     deadlines={"settle_seconds": SETTLE})
    assert log_rows(session, game.id) == []  # nothing applied yet: the deck can still be set
    game.setup = {**game.setup, "deck": list(deck)}
    game.decision_at = T0  # the first question was asked at the start of the Driver's clock
    session.commit()
    clear_cache()
    return game.id


def test_twin_games_one_hidden_card_apart_advance_at_the_same_times(session, ana, monkeypatch):
    """Two games the same but for one card in Ana's hand: in one she holds Sacred Games, so a
    battle against her is a real question; in the other it is answered for her.  She answers
    every real question the moment it is asked, with what the other game's seat gave; every
    advance then runs at the same time, with the same deadlines and settle windows."""
    monkeypatch.setattr(play, "request_advance", lambda session, game_id: True)  # the Driver advances
    seed = SEED
    deck = list(replay({"game": "aztlan", "players": list(engine.get_game("aztlan").seats), "seed": seed,
                        "orders": []}).setup.deck)  # the seed's shuffle, given explicitly
    plain = _twin(session, ana, seed, deck)
    seat = my_seat(session.get(Game, plain), ana).name
    first = Driver(session, monkeypatch, plain, ana)
    first.play(lambda session, game: person_answer(session, game, ana))
    rows = log_rows(session, plain)

    # The twin: an Offering Ana holds at one of her forced answers swapped with a card nobody
    # ever draws that would have given her a choice there, so that only her hand differs.
    game = session.get(Game, plain)
    final = replay(record(game, [f"{row.seat}: {row.text}" for row in rows]))
    assert final.reshuffles == 0
    pile = list(reversed(deck))  # as the state keeps it: the top card last
    undrawn = {card: p for p, card in enumerate(pile[:len(final.deck)])}
    state = replay({**record(game, []), "orders": []})
    s = state.seats.index(seat)
    drawn: list[int] = []  # positions in the pile of the cards Ana drew
    swap = None
    for row in rows:
        choice = CHOICE_CARDS.get(row.text.split()[0]) if row.seat == seat and row.by == "forced" else None
        held = [p for p in drawn if pile[p] == "offering" and "offering" in state.hands[s]]
        if choice is not None and held and choice in undrawn:
            swap = held[0], undrawn[choice]
            break
        before = len(state.hands[s]), len(state.deck)
        state.apply(row.seat, state.parse(row.text)[0])
        if len(state.hands[s]) > before[0] and len(state.deck) < before[1]:
            drawn.append(before[1] - 1)  # drawn from the end of the pile
    assert swap is not None, "no forced answer of Ana's to twin in this seed"
    pile[swap[0]], pile[swap[1]] = pile[swap[1]], pile[swap[0]]
    twin_deck = list(reversed(pile))

    # In the twin Ana answers, at the moment she is asked, what her seat gave in the plain game.
    twin = _twin(session, ana, seed, twin_deck)
    second = Driver(session, monkeypatch, twin, ana)

    def answer(session, game):
        now_rows = log_rows(session, game.id)
        seq = len(now_rows)
        assert [(r.seat, r.text) for r in now_rows] == [(r.seat, r.text) for r in rows[:seq]], "the twins parted"
        return next(row.text for row in rows if row.seq > seq and row.seat == seat)

    second.play(answer)
    twin_rows = log_rows(session, twin)
    assert [(r.seat, r.text) for r in twin_rows] == [(r.seat, r.text) for r in rows]
    chose = {r.seq for r in twin_rows if r.by == "player"} & {r.seq for r in rows if r.by == "forced"}
    assert chose, "in the twin Ana had a real choice where the plain game answered for her"
    assert second.schedule == first.schedule
    assert len(first.schedule) > 20 and all(entry[-1] is not None for entry in first.schedule)


# ---- inline advances: a forced answer never waits for a later advance ----------------------------

def test_inline_a_forced_answer_to_a_secret_question_is_filed_and_applied_in_the_advance_that_asks_it(
        session, ana, bo):
    """Under PBEM_ADVANCE=inline (every order advances the game in its own request, no settle
    window): two people and two bots play a whole Aztlán game, each person answering what they
    are asked.  A forced answer is filed by the very advance that asks the question, so after
    each request the game never stands on a decision whose every seat has answered (an answer
    left for some later advance to apply), and several of the forced answers were to secret
    questions answered by more than one seat at once (a battle against several defeated seats,
    a scoring)."""
    from pbem.services import lobby

    seed = 5  # Aztlán, four players: both people are answered battles and ties, some of them secret
    game = make_game(session, ana, game="aztlan", players=4, bots=("random", "random"), seed=seed)
    game_id = game.id
    lobby.join_game(session, game_id, bo)
    rules = engine.get_game("aztlan")
    for step, game, state in while_running(session, game_id, 3000):
        answered = {row.seat for row in session.scalars(select(PendingOrder).where(PendingOrder.game_id == game_id))}
        owed = [d.seat for d in state.decisions(options=False)]
        bots = {seat.name for seat in game.seats if seat.bot}
        assert not all(seat in answered | bots for seat in owed), f"a complete decision waits: {owed}, {answered}"
        person = next(user for user in (ana, bo) if my_seat(game, user).waiting)
        seat = my_seat(game, person).name
        order = rules.make_bot("random", f"person:{step}").order(state, state.seats.index(seat))
        play.submit_for_user(session, game_id, person, state.order_text(order), channel="api")
    rows = log_rows(session, game_id)
    people = {my_seat(game, ana).name, my_seat(game, bo).name}
    state = replay({**record(game, []), "orders": []})
    secret_forced = 0
    for row in rows:
        if row.by == "forced":
            assert row.seat in people
            decisions = state.decisions(options=False)
            secret_forced += decisions[0].simultaneous and len(decisions) > 1
        state.apply(row.seat, state.parse(row.text)[0])
    assert secret_forced >= 2, "the seed gives forced answers to secret questions of several seats"
