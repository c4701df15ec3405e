"""Advancing a game: apply every committed order that can be applied now.

`advance(session, game_id)` is the one place orders reach the order log.  Issue 3 runs it
inline after each submission; issue 4 calls it from a worker.  It is idempotent: with
nothing new to apply it changes nothing, so running it twice is harmless.

- A simultaneous (secret) decision is applied only once every waiting seat has an
  order, all together, so nobody's choice is visible before the others have chosen.
- A sequential decision takes the waiting seat's pending orders in arrival order; what
  the engine hands back because the game moved on to someone else stays pending.
- Bot seats decide on the spot.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.aztlan.bots import make_bot
from engine.core import GameState, OrderError
from engine.records import split_line
from pbem.models import Game, OrderLogEntry, PendingOrder, Seat, now
from pbem.services.errors import StaleGame
from pbem.services.locking import bump_version, lock_game, unit_of_work
from pbem.services.state import cache_key, game_state, remember

MAX_ATTEMPTS = 3
MAX_STEPS = 10_000  # far above a whole game's orders: a guard against a rules bug looping
FALLBACK_BOT = "random"
FALLBACK_TRIES = 20


@dataclass
class Advanced:
    applied: list[str] = field(default_factory=list)  # new order-log lines (secret until the end)
    version: int = 0
    finished: bool = False


class BotFailure(RuntimeError):
    """No bot found a legal order: a bug in the rules or the bots, never the players' fault."""


@unit_of_work
def advance(session: Session, game_id: int) -> Advanced:
    for attempt in range(MAX_ATTEMPTS):
        try:
            return _advance_once(session, game_id)
        except StaleGame:
            if attempt == MAX_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def _pending(session: Session, game_id: int) -> dict[str, list[PendingOrder]]:
    queue: dict[str, list[PendingOrder]] = defaultdict(list)
    for row in session.scalars(select(PendingOrder).where(PendingOrder.game_id == game_id)
                               .order_by(PendingOrder.id)):
        queue[row.seat].append(row)
    return queue


def _advance_once(session: Session, game_id: int) -> Advanced:
    game = lock_game(session, game_id)
    if game.status != Game.ACTIVE:
        session.rollback()  # release the lock
        return Advanced(version=game.version, finished=game.status == Game.FINISHED)
    state = game_state(session, game).clone()
    before = len(state.order_log())
    seats = {seat.tribe: seat for seat in game.seats}
    queue = _pending(session, game.id)
    run = _Run(state, game.setup.get("seed"), seats, queue)
    run.play()

    lines = state.order_log()[before:]
    changes: dict[str, Any] = {}
    if state.is_over():
        changes = {"status": Game.FINISHED, "result": state.result(), "finished_at": now()}
    if lines or changes:
        bump_version(session, game, **changes)
        for seq, line in enumerate(lines, start=before + 1):
            seat, text = split_line(line)
            session.add(OrderLogEntry(game_id=game.id, seq=seq, seat=seat, text=text))
    if state.is_over():  # orders queued for turns that will never come
        run.consumed.extend(row for rows in queue.values() for row in rows)
    for row in run.consumed:
        session.delete(row)
    waiting = set() if state.is_over() else {state.seats[s] for s in _waiting(state)}
    for tribe, seat in seats.items():
        owes = tribe in waiting and seat.bot is None and not queue.get(tribe)
        if seat.waiting != owes:
            seat.waiting = owes
        if tribe in run.errors:
            seat.last_error = run.errors[tribe]
    key = cache_key(session, game)
    version, finished = game.version, state.is_over()
    session.commit()
    if lines:
        remember(key, state)  # only once committed: an uncommitted state must never be served
    return Advanced(lines, version, finished)


def _waiting(state: GameState) -> list[int]:
    return [state.seats.index(d.seat) for d in state.decisions(options=False)]


class _Run:
    """One pass of applying orders to a working copy of the state."""

    def __init__(self, state: GameState, seed: Any, seats: dict[str, Seat],
                 queue: dict[str, list[PendingOrder]]):
        self.state, self.seed, self.seats, self.queue = state, seed, seats, queue
        self.consumed: list[PendingOrder] = []
        self.errors: dict[str, str] = {}

    def play(self) -> None:
        state = self.state
        for _ in range(MAX_STEPS):
            if state.is_over():
                return
            decisions = state.decisions(options=False)
            waiting = [d.seat for d in decisions]
            if decisions[0].simultaneous:
                if any(self.seats[t].bot is None and not self.queue.get(t) for t in waiting):
                    return  # a secret choice is missing: apply nothing of this decision yet
                # Bots choose before any choice of this decision is applied, so they cannot
                # react to the others' secret choices.
                chosen = {t: self._bot_order(t) for t in waiting if self.seats[t].bot}
                for tribe in waiting:
                    if tribe in chosen:
                        self._apply_bot(tribe, chosen[tribe])
                    else:
                        self._apply_queued(tribe)
            else:
                tribe = waiting[0]
                if self.seats[tribe].bot:
                    self._apply_bot(tribe, self._bot_order(tribe))
                elif self.queue.get(tribe):
                    self._apply_queued(tribe)
                else:
                    return  # waiting on a person
        raise RuntimeError("advance did not settle: the game loops")

    def _bot_order(self, tribe: str, kind: str | None = None, attempt: int = 0) -> Any:
        state = self.state
        # Seeded from the secret seed and the log length: the same position gets the same answer.
        seed = f"{self.seed}:{tribe}:{len(state.order_log())}:{attempt}"
        return make_bot(kind or self.seats[tribe].bot or FALLBACK_BOT, seed).order(
            state, state.seats.index(tribe))  # type: ignore[arg-type]

    def _apply_bot(self, tribe: str, order: Any) -> None:
        for attempt in range(FALLBACK_TRIES + 1):
            try:
                self.state.apply(tribe, order)  # type: ignore[attr-defined]
                return
            except OrderError:
                order = self._bot_order(tribe, FALLBACK_BOT, attempt)
        raise BotFailure(f"no legal order found for the {tribe} bot")

    def _apply_queued(self, tribe: str) -> None:
        rows = self.queue.pop(tribe)
        try:
            orders = [order for row in rows for order in self.state.parse(row.text)]
            leftover = self.state.submit(tribe, orders)
        except OrderError as error:
            # Valid when submitted, refused now (the game moved on): drop it and tell the player.
            self.errors[tribe] = f"{'; '.join(row.text for row in rows)}: {error}"
            self.consumed.extend(rows)
            return
        used = len(rows) - len(leftover)
        self.consumed.extend(rows[:used])
        if leftover:
            self.queue[tribe] = rows[used:]
