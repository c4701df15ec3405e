"""Advancing a game: apply every committed order that can be applied now.

`advance(session, game_id)` is the one place orders reach the order log.  A Celery worker
runs it (task `pbem.advance_game`, docs/workers.md); with `PBEM_ADVANCE=inline` the request
that submitted the order runs it.  It is idempotent: with nothing new to apply it changes
nothing, so running it twice (a task delivered twice) is harmless.

- A simultaneous (secret) decision is applied only once every waiting seat has an
  order, all together, so nobody's choice is visible before the others have chosen.
- A sequential decision takes the waiting seat's pending orders in arrival order; what
  the engine hands back because the game moved on to someone else stays pending.
- Bot seats decide on the spot, and so do stand-in bots (for a person on vacation under the
  "bot" rule, or whose seat is offered to a replacement) once the seat has no orders of its own.
- An order queued ahead (pbem/services/turn_queue.py) is taken when the seat's turn of the
  queued kind comes and it has no pending orders; one that turns out illegal is dropped, the
  player is told, and the seat is asked normally for that turn.
- Each new order-log line records who decided (`by`), and `schedule()` keeps the current
  decision's deadline (docs/deadlines.md).
- A question with a single legal answer (`engine.core.forced_order`) is answered for a
  person's seat by the service: the order is filed as the seat's pending order (channel
  `forced`, dated when the question was asked, logged `by="forced"`) and is from then on an
  answer like any other, so it never holds the game up and is timed like an answer given
  at once (docs/deadlines.md, "Forced answers").
- A game's settle window (`deadline_policy["settle_seconds"]`) holds a complete simultaneous
  decision until that long after its last order, so players can still change their minds,
  and a person's decision in turn until that long after it was asked (forced or chosen alike);
  `Advanced.settle_until` then says when to run again.
- Seats that newly owe a decision, and everyone at the end, are notified in the same
  transaction (pbem/services/announce.py: rows in the mail outbox).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Sequence

from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from engine import get_game
from engine.core import GameState, OrderError, decision_line, forced_order
from engine.records import split_line
from pbem.games import presentation
from pbem.models import Game, OrderLogEntry, PendingOrder, QueuedTurn, Seat, now
from pbem.outbox.messages import Mail, holding, send_held, send_mails
from pbem.services import game_over
from pbem.services.errors import NotFound, StaleGame
from pbem.services.locking import bump, bumped, lock_game, unit_of_work
from pbem.services.announce import notify_advanced
from pbem.services.notify import mail_seat
from pbem.services.schedule import schedule
from pbem.services.state import cache_key, game_state, remember
from pbem.tasks import after_commit
from pbem.writes import Write, deleted, execute, row_write, rows_insert

MAX_ATTEMPTS = 3
MAX_STEPS = 10_000  # far above a whole game's orders: a guard against a rules bug looping
FALLBACK_BOT = "random"
FALLBACK_TRIES = 20
MAX_SETTLE_SECONDS = 600  # the longest settle window a game may ask for


@dataclass
class Advanced:
    applied: list[str] = field(default_factory=list)  # new order-log lines (secret until the end)
    version: int = 0
    finished: bool = False
    # A complete simultaneous decision held by the settle window: advance again at this time.
    settle_until: datetime | None = None


class BotFailure(RuntimeError):
    """No bot found a legal order: a bug in the rules or the bots, never the players' fault."""


def settle_seconds(policy: dict[str, Any] | None) -> int:
    """A game's settle window in seconds (0: none) from its deadline policy, capped."""
    value = (policy or {}).get("settle_seconds") or 0
    return max(0, min(int(value), MAX_SETTLE_SECONDS))


@unit_of_work
def advance(session: Session, game_id: int, *, settle: bool = True, at: datetime | None = None,
            commit: bool = True, mails: Sequence[Mail] = (), writes: Sequence[Write] = ()) -> Advanced:
    """Apply what can be applied now.  `settle=False` ignores the settle window (inline mode
    has no worker to come back when the window closes).  `at`: the time a new decision
    begins (its deadline counts from it); now by default (the deadline tick passes its clock).
    `commit=False`: the caller holds the game's lock and commits (the deadline tick, many games
    per transaction); a stale game then raises at once, as the caller's other work is undone.
    With it, the caller's `mails` (keys asked with `queued_keys`) and Core `writes` are sent
    with the advance's own (one statement on PostgreSQL: the tick's defaults, issue 18)."""
    if not commit:
        return _advance_once(session, game_id, settle, at or now(), commit=False, also=(mails, writes))
    assert not mails and not writes, "only a caller holding the lock sends its writes with the advance"
    for attempt in range(MAX_ATTEMPTS):
        try:
            return _advance_once(session, game_id, settle, at or now())
        except StaleGame:
            if attempt == MAX_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def _pending(game: Game) -> dict[str, list[PendingOrder]]:
    """The game's pending orders by seat, in arrival order (read with its lock)."""
    queue: dict[str, list[PendingOrder]] = defaultdict(list)
    for row in game.pending_orders:
        queue[row.seat].append(row)
    return queue


def _queued_turns(game: Game) -> dict[str, list[QueuedTurn]]:
    """The game's turns queued ahead by seat, in queue order (read with its lock)."""
    turns: dict[str, list[QueuedTurn]] = defaultdict(list)
    for row in game.queued_turns:
        turns[row.seat].append(row)
    return turns


def _advance_once(session: Session, game_id: int, settle: bool = True, at: datetime | None = None,
                  commit: bool = True, also: tuple[Sequence[Mail], Sequence[Write]] = ((), ())) -> Advanced:
    # With everything it works on: the people its mails go to, the orders pending and queued.
    # Without commit the caller holds the lock already, the game so read (locking.claim_games).
    game = lock_game(session, game_id, people=True, pending=True, queued=True) if commit \
        else session.get(Game, game_id)
    if game is None:
        raise NotFound(f"there is no game {game_id}")
    if game.status != Game.ACTIVE:
        if commit:
            session.rollback()  # release the lock
        else:
            send_mails(session, also[0], writes=also[1])
        return Advanced(version=game.version, finished=game.status == Game.FINISHED)
    state = game_state(session, game).clone()
    before = len(state.order_log())
    milestones = len(state.milestones())  # the phases completed since get reports and notices
    owed_before = _owed(state)
    seats = {seat.name: seat for seat in game.seats}
    queue = _pending(game)
    window = timedelta(seconds=settle_seconds(game.deadline_policy) if settle else 0)
    clock = at or now()
    # When the question owed now was asked: the decision the game already waited for, or this moment.
    asked_at = game.decision_at if game.decision_seq == decision_line(state) and game.decision_at is not None else clock
    run = _Run(state, game.setup.get("seed"), seats, queue, window, _queued_turns(game), before,
               game_id=game.id, clock=clock, asked_at=asked_at)
    run.play()
    session.add_all(row for row in run.forced if row not in run.consumed)  # forced answers still pending

    lines = state.order_log()[before:]
    changes: dict[str, Any] = {}
    if state.is_over():
        changes = {"status": Game.FINISHED, "result": state.result().to_json(), "finished_at": now()}
    if state.is_over():  # orders queued for turns that will never come
        run.consumed.extend(row for rows in queue.values() for row in rows)
    run.expire_turns()
    # The advance's writes, sent with the game's UPDATE (no unit of work at commit): the orders
    # used up (a forced answer applied in this very run was never stored), the seats' changes.
    writes = deleted(session, [row for row in run.consumed if row not in run.forced])
    owed = {} if state.is_over() else _owed(state)
    anew = _owed_anew(lines, owed_before, owed, _per_order(state))
    newly_waiting = []
    for n, (seat_name, seat) in enumerate(seats.items()):
        owes = seat_name in owed and seat.bot is None and seat.stand_in is None and not queue.get(seat_name)
        if owes and (not seat.waiting or seat_name in anew):
            newly_waiting.append(seat)
        values: dict[str, Any] = {"waiting": owes}
        if seat_name in run.errors:
            values["last_error"] = run.errors[seat_name]
        if seat_name in run.held:
            values["queue_held_seq"] = run.held[seat_name]
        writes.extend(_seat_changes(n, seat, values))
        if seat_name in run.turn_errors:  # the event: where in the log the turn was refused
            mail_seat(session, game, seat.user, f"at{run.held[seat_name]}",
                      f"{game.title}: a queued turn could not be played",
                      f"{run.turn_errors[seat_name]}\n\nIt was dropped. {game.title} waits for your own "
                      "order for this turn; your other queued turns stay queued.\n", topic="queue-error")
    # The seats whose orders stay pending have acted: the deadline needs no second look.
    acted = {name for name, rows in queue.items() if any(row not in run.consumed for row in rows)}
    with session.no_autoflush:  # the new decision and deadline go with the version, below
        schedule(session, game, clock, state, acted=acted)  # first: turn mails tell a seat its clock
        # The order log with no objects: nothing in the transaction reads them back.
        writes.extend(_log_writes(session, game.id, before, lines, run.by))
        # The compare-and-set: one UPDATE of the game, the other writes with it (built now, so
        # the game is written with the version: nothing below flushes it again).
        update = bump(game, **changes) if lines or changes else None
    # The mails go with those writes too, in one statement on PostgreSQL (messages.holding).
    with holding(session) as held:
        send_mails(session, also[0], writes=also[1])  # the caller's: held on PostgreSQL, else sent now
        if lines or changes or newly_waiting:
            notify_advanced(session, game, state, newly_waiting, milestones, locked=True, logged=bool(lines))
    mails = held.mails if held is not None else []
    writes.extend(held.writes if held is not None else ())
    if mails:
        touched = send_held(session, mails, writes, update.write if update is not None else None)
    elif update is not None:
        touched = update.send(session, writes)
    else:
        execute(session, writes)
    if update is not None:
        bumped(session, game, touched)
    if changes.get("status") == Game.FINISHED:
        game_over.ended(session, game)  # in this transaction: a league learns it with the result
    key = cache_key(session, game)
    version, finished = game.version, state.is_over()
    if lines:  # only once committed: an uncommitted state must never be served
        after_commit(session, lambda: remember(key, state))
    if commit:
        session.commit()
    return Advanced(lines, version, finished, run.settle_until)


_LOG = OrderLogEntry.__table__
_SEATS = Seat.__table__


def _seat_changes(n: int, seat: Seat, values: dict[str, Any]) -> list[Write]:
    """The UPDATE of the seat's columns whose `values` differ (none if none do), for the caller
    to send (`n`: the seat's place among those written together); the seat object takes them
    as already written."""
    changed = {key: value for key, value in values.items() if getattr(seat, key) != value}
    for key, value in changed.items():
        set_committed_value(seat, key, value)
    if not changed:
        return []
    return [row_write(_SEATS, f"seat{n}", seat.id, changed)]


def _log_writes(session: Session, game_id: int, before: int, lines: list[str], by: dict[int, str]) -> list[Write]:
    """The INSERT of the advance's order-log lines (the log had `before`; `by`: who decided
    each, by index in the log), one statement of one shape however many (`rows_insert`)."""
    rows = []
    for n, line in enumerate(lines):
        seat, text = split_line(line)
        rows.append({"game_id": game_id, "seq": before + 1 + n, "seat": seat, "text": text,
                     "by": by.get(before + n, "player"), "applied_at": now()})
    return rows_insert(session, _LOG, "log", rows)


def _owed(state: GameState) -> dict[str, str]:
    """Seat -> the kind of decision it owes."""
    return {d.seat: d.kind for d in state.decisions(options=False)}


def _per_order(state: GameState) -> frozenset[str]:
    """The game's kinds of decision of one order each (`DecisionKind.per_order`)."""
    return frozenset(kind.name for kind in get_game(state.game).decision_kinds if kind.per_order)


def _owed_anew(lines: list[str], before: dict[str, str], after: dict[str, str],
               per_order: frozenset[str] = frozenset()) -> set[str]:
    """Seats that answered in this advance and owe a new decision though they never stopped
    owing one: the kind changed (the last to choose a power card develops first), others
    moved after them (a turn came round again), or the kind is one order each (a final turn's
    second action).  A seat still settling its conflicts, with nobody moving after it, owes
    the same decision: no second "your turn"."""
    last = {split_line(line)[0]: i for i, line in enumerate(lines)}
    return {seat for seat, i in last.items()
            if seat in after and (before.get(seat) != after[seat] or i < len(lines) - 1 or after[seat] in per_order)}


class _Run:
    """One pass of applying orders to a working copy of the state."""

    def __init__(self, state: GameState, seed: Any, seats: dict[str, Seat],
                 queue: dict[str, list[PendingOrder]], settle: timedelta = timedelta(0),
                 turns: dict[str, list[QueuedTurn]] | None = None, logged: int = 0, *,
                 game_id: int = 0, clock: datetime | None = None, asked_at: datetime | None = None):
        self.state, self.seed, self.seats, self.queue = state, seed, seats, queue
        self.settle = settle
        self.game_id = game_id
        self.clock = clock or now()  # this advance's time: the start of any question it asks
        self.asked_at = asked_at or self.clock  # when the question owed now was asked
        self.asked_line = decision_line(state)  # the order log's length then (engine.core)
        self.forced: list[PendingOrder] = []  # forced answers filed in this run
        self.forced_tried: set[tuple[str, int]] = set()  # (seat, log length): filed once per question
        self.settle_until: datetime | None = None
        self.consumed: list[PendingOrder | QueuedTurn] = []
        self.errors: dict[str, str] = {}
        self.turns = turns or {}  # development turns queued ahead, per seat
        self.turn_errors: dict[str, str] = {}  # queued turns refused when their turn came
        self.held = {t: seat.queue_held_seq for t, seat in seats.items() if seat.queue_held_seq is not None}
        self.logged = logged  # the order log's length so far
        self.by: dict[int, str] = {}  # order-log index -> who decided

    def _bot_kind(self, seat_name: str) -> str | None:
        """The bot that decides for this seat now: a bot seat's, or a stand-in's when the
        person has no orders of their own in (pending, or a queued turn for this turn)."""
        seat = self.seats[seat_name]
        if seat.bot:
            return seat.bot
        if seat.stand_in and not self.queue.get(seat_name) and not self._has_turn(seat_name):
            return seat.stand_in
        return None

    def _logged(self, by: str, lines: int | None = None) -> None:
        """Mark the order-log lines just applied (`lines` if known: one per `apply`)."""
        count = self.logged + lines if lines is not None else len(self.state.order_log())
        self.by.update((i, by) for i in range(self.logged, count))
        if decision_line(self.state) != self.asked_line:  # orders riding with a decision ask nothing new
            self.asked_at, self.asked_line = self.clock, decision_line(self.state)
        self.logged = count

    def play(self) -> None:
        state = self.state
        for _ in range(MAX_STEPS):
            if state.is_over():
                return
            decisions = state.decisions(options=False)
            waiting = [d.seat for d in decisions]
            if decisions[0].simultaneous:
                bots = {t: self._bot_kind(t) for t in waiting}
                for t in waiting:
                    if bots[t] is None and not self.queue.get(t):
                        self._file_forced(t)  # counts as in, applied with the others' answers
                if any(bots[t] is None and not self.queue.get(t) for t in waiting):
                    return  # a secret choice is missing: apply nothing of this decision yet
                if self._settling(waiting):
                    return  # complete, but its last order may still change
                # Bots choose before any choice of this decision is applied, so they cannot
                # react to the others' secret choices.
                chosen = {t: self._bot_order(t, kind) for t, kind in bots.items()
                          if kind and not self.queue.get(t)}
                for seat_name in waiting:
                    if seat_name in chosen:
                        self._apply_bot(seat_name, chosen[seat_name])
                    else:
                        self._apply_queued(seat_name)
            else:
                seat_name = waiting[0]
                if self.seats[seat_name].bot:
                    self._apply_bot(seat_name, self._bot_order(seat_name))
                elif self.queue.get(seat_name) or (not self._has_turn(seat_name) and not self._bot_kind(seat_name)
                                                   and self._file_forced(seat_name)):
                    if self._settling([seat_name], in_turn=True):
                        return  # asked too recently: the window hides whether it was forced
                    self._apply_queued(seat_name)
                elif self._apply_turn(seat_name):
                    pass
                elif self._bot_kind(seat_name):
                    self._apply_bot(seat_name, self._bot_order(seat_name, self._bot_kind(seat_name)))
                else:
                    return  # waiting on a person
        raise RuntimeError("advance did not settle: the game loops")

    def _file_forced(self, seat_name: str) -> bool:
        """Answer the seat's question for it when it has a single legal answer: a pending
        order dated when the question was asked, as if the person had answered at once."""
        key = (seat_name, self.logged)
        if key in self.forced_tried:
            return False  # refused once already (a bug in the game's forced_order): ask the person
        self.forced_tried.add(key)
        text = forced_order(get_game(self.state.game), self.state, seat_name)
        if text is None:
            return False
        row = PendingOrder(game_id=self.game_id, seat=seat_name, text=text, channel="forced",
                           user_id=None, submitted_at=self.asked_at)
        self.forced.append(row)
        self.queue[seat_name].append(row)
        return True

    def _settling(self, waiting: list[str], in_turn: bool = False) -> bool:
        """Whether the settle window is still open: after this decision's last order for a
        secret decision; for a decision in turn, after the question was asked."""
        if not self.settle:
            return False
        arrived = [row.submitted_at for seat_name in waiting for row in self.queue.get(seat_name, ())]
        if not arrived:
            return False  # only bots decide here: nothing a person could still change
        until = self.asked_at + self.settle if in_turn else max(arrived) + self.settle
        if self.clock < until:
            self.settle_until = until
            return True
        return False

    def _bot_order(self, seat_name: str, kind: str | None = None, attempt: int = 0) -> Any:
        state = self.state
        # Seeded from the secret seed and the log length: the same position gets the same answer.
        seed = f"{self.seed}:{seat_name}:{len(state.order_log())}:{attempt}"
        return get_game(state.game).make_bot(kind or self.seats[seat_name].bot or FALLBACK_BOT, seed).order(
            state, state.seats.index(seat_name))

    def _apply_bot(self, seat_name: str, order: Any) -> None:
        for attempt in range(FALLBACK_TRIES + 1):
            try:
                self.state.apply(seat_name, order)  # type: ignore[attr-defined]
                self._logged("bot" if self.seats[seat_name].bot else "stand-in", 1)
                return
            except OrderError:
                order = self._bot_order(seat_name, FALLBACK_BOT, attempt)
        raise BotFailure(f"no legal order found for the {seat_name} bot")

    def _apply_queued(self, seat_name: str) -> None:
        rows = self.queue.pop(seat_name)
        try:
            orders = [order for row in rows for order in self.state.parse(row.text)]
            leftover = self.state.submit(seat_name, orders)
        except OrderError as error:
            # Valid when submitted, refused now (the game moved on): drop it and tell the player.
            self.errors[seat_name] = f"{'; '.join(row.text for row in rows)}: {error}"
            self.consumed.extend(rows)
            return
        channels = {row.channel for row in rows}
        self._logged("default" if "default" in channels else "forced" if channels == {"forced"} else "player")
        used = len(rows) - len(leftover)
        self.consumed.extend(rows[:used])
        if leftover:
            self.queue[seat_name] = rows[used:]

    # ---- orders queued ahead (the game's presentation names their kind) ----------------------

    def _has_turn(self, seat_name: str) -> bool:
        """A queued order may be played now: the seat owes a decision of the queued kind in
        the round it was queued for, and no queued order failed in this very turn."""
        rows = self.turns.get(seat_name)
        return (bool(rows) and self.held.get(seat_name) != self.logged
                and self.state.decisions(options=False)[0].kind == presentation(self.state.game).queued_kind
                and self.state.round == rows[0].round)

    def _apply_turn(self, seat_name: str) -> bool:
        """Play the seat's next queued turn; False if there is none, or it is illegal now (then
        it is dropped and the queue waits for the seat's own order for this turn)."""
        if not self._has_turn(seat_name):
            return False
        row = self.turns[seat_name].pop(0)
        self.consumed.append(row)
        try:
            self.state.submit(seat_name, self.state.parse(row.text))
        except OrderError as error:
            self.turn_errors[seat_name] = self.errors[seat_name] = f"queued turn '{row.text}': {error}"
            self.held[seat_name] = self.logged
            return False
        self._logged("player")
        return True

    def expire_turns(self) -> None:
        """Queued orders for a round whose turns of their kind are over (a queue sent now
        would be for a later round), or of a finished game, go."""
        state = self.state
        try:
            target = None if state.is_over() else presentation(state.game).queue_round(state)
        except OrderError:  # no round is left to queue for
            target = None
        for seat_name, rows in self.turns.items():
            stale = [row for row in rows if target is None or row.round < target]
            if stale:
                self.consumed.extend(stale)
                self.turns[seat_name] = [row for row in rows if row not in stale]
