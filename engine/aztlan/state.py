"""The rules of Aztlán as a state machine: who must decide what, and what each order does.

Seats are indices into `seats` (initial stack order, top first).  A "people" owns
pawns: in 3 and 4 player games each seat is one tribe; in the 2-player Aztec Gods
variant there are two peoples (factions) and each seat controls one per age.
Territories are indices into the board; orders name them by board id.
The rule text behind every step is quoted in docs/rules.md.
"""
from __future__ import annotations

import copy
import random
from bisect import insort
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Sequence

from engine.aztlan import scoring
from engine.aztlan.board import TERRAIN_TYPES, Board
from engine.aztlan.cards import (AGES, BLESSINGS, EAGLE_JAGUAR, FACTIONS, OFFERING, PAWNS_PER_AGE,
                                 PAWNS_PER_TRIBE, RAFTS, SACRED_GAMES, TLATOANI, WILD,
                                 offerings_bonus)
from engine.aztlan.edition import Edition
from engine.aztlan.options import Options
from engine.aztlan.orders import (ChooseCard, LetTieStand, Order, React, Resolve, Score, Turn,
                                  parse_orders, to_text)
from engine.core import Decision, IllegalOrderError, Milestone, NotYourDecisionError, Result

CHOOSING, DEVELOPMENT, CONFLICT, SCORING, OVER = "choosing", "development", "conflict", "scoring", "over"
PUBLIC = -1  # audience of an event every seat and spectator sees
_KIND_OF_PHASE = {CHOOSING: "power", DEVELOPMENT: "turn", SCORING: "scoring"}
# The data of each kind of event, in the order an event"s tuple holds them after its kind
# and age (see _event).
EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "age": ("control",),
    "chosen": ("seat",),
    "my-card": ("seat", "card"),
    "turn-order": ("order",),
    "turn": ("seat", "place", "eagle", "move"),
    "reveal": ("cards",),
    "conflicts": ("territories",),
    "battle": ("seat", "territory"),
    "my-answer": ("territory", "sacred"),
    "battle-result": ("territory", "seat", "removed", "sacred_games"),
    "draw": ("seat",),
    "my-draw": ("seat", "card"),
    "my-scoring": ("order",),
    "scores": ("scores",),
    "game-over": ("scores", "bonuses", "ranking", "winner", "tiebreak"),
    "tlatoani": ("seat", "territory"),
    "coexist": ("seat", "territory"),
    "tie": ("territory", "seats", "removed"),
    "reshuffle": ("cards",),
    "deck-empty": ("seat",),
}
# Every phase of every age a game completes, made once: a frozen dataclass is dear to make
# (its __init__ sets each field through object.__setattr__) and these never change.
MILESTONES = {(age, phase): Milestone(age, phase, scored=phase == SCORING)
              for age in range(1, AGES + 1) for phase in (CHOOSING, DEVELOPMENT, CONFLICT, SCORING)}
HIDDEN_CARD = "?"  # what a dry run draws, so validating orders never peeks at the deck
NO_CARDS = Score()  # a scoring turn that plays no card


@dataclass(frozen=True)
class Setup:
    """Everything a game is made from, besides its order log."""

    seats: tuple[str, ...]  # initial stack order, top first
    board: Board
    edition: Edition
    options: Options
    seed: int | str
    deck: tuple[str, ...]  # the shuffled prosperity deck, top card first
    factions: tuple[int, ...] = ()  # 2 players: the faction each seat controls in age 1
    names: tuple[str, ...] = ()  # players' display names, if any


class BoardMasks:
    """Bit masks derived once per board, for fast scoring."""

    def __init__(self, board: Board):
        self.count = len(board.territories)
        self.adjacent = tuple(sum(1 << j for j in near) for near in board.adjacent)
        self.type_masks = {kind: sum(1 << i for i, t in enumerate(board.type_of) if t == kind)
                           for kind in TERRAIN_TYPES}
        self.shore_masks = tuple(sum(1 << i for i in shores) for shores in board.lake_shores)
        # Where a pawn moved from each territory may go (a lake breaks adjacency), by id as
        # text (as JSON keys are): a development turn's `move_to` option.
        self.destinations = {str(board.ids[t]): tuple(sorted(board.ids[n] for n in near))
                             for t, near in enumerate(board.adjacent)}


@dataclass(slots=True)
class Conflict:
    """One disputed territory this age."""

    territory: int
    powers: dict[int, int]  # people -> power
    winner: int | None  # seat with the strictly highest power (or the Tlatoani player)
    leaders: list[int]  # tied seats, in turn order, when there is no single winner
    passed: set[int] = field(default_factory=set)
    resolved: bool = False

    def copy(self) -> "Conflict":
        return Conflict(self.territory, dict(self.powers), self.winner, list(self.leaders), set(self.passed),
                        self.resolved)


@dataclass(slots=True)
class PendingReaction:
    """A declared battle waiting for the defeated seats that hold cards to answer."""

    territory: int
    winner: int
    asked: list[int]
    answers: dict[int, bool] = field(default_factory=dict)

    def copy(self) -> "PendingReaction":
        return PendingReaction(self.territory, self.winner, list(self.asked), dict(self.answers))


class AztlanState:
    game = "aztlan"
    _HANDLERS: ClassVar[dict[str, dict[type, Callable[..., None]]]]  # set below the class

    def __init__(self, setup: Setup, masks: BoardMasks | None = None):
        self.setup = setup
        self.board = setup.board
        self.masks = masks or BoardMasks(setup.board)
        self.options = setup.options
        self.seats = setup.seats
        self.seat_of = {seat: s for s, seat in enumerate(setup.seats)}
        n = self.n = len(setup.seats)
        self.two_player = n == 2
        self.peoples = FACTIONS if self.two_player else setup.seats
        people_count = len(self.peoples)
        self.control = list(setup.factions) if self.two_player else list(range(n))
        self.card_type = {card.number: card.type for card in setup.edition.power_cards}
        self.card_points = {card.number: card.points for card in setup.edition.power_cards}

        self.age = 1
        self.phase = CHOOSING
        self.score = [0] * n
        self.height = [n - i for i in range(n)]  # higher is nearer the top of a stack
        self.next_height = n + 1
        self.power_left = [sorted(self.card_type) for _ in range(n)]
        self.played: list[list[int]] = [[] for _ in range(n)]  # revealed cards, by age
        self.chosen: list[int | None] = [None] * n
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.deck = list(reversed(setup.deck))  # pop() takes the top card
        self.discard: list[str] = []
        self.reshuffles = 0
        self.hidden = False  # a dry-run copy: draws are HIDDEN_CARD

        pool = PAWNS_PER_TRIBE * (2 if self.two_player else 1)
        self.pawns = [[0] * people_count for _ in range(self.masks.count)]
        self.reserve = [pool] * people_count
        self.to_place = [0] * people_count
        self.removed_before = [0] * people_count  # removed in earlier ages
        self.removed_now = [0] * people_count  # removed this age
        self.placed_mask = [0] * people_count  # where a reserve pawn was placed this age
        self.occupied_mask = [0] * people_count  # where each people has pawns (kept up to date)

        self.order: list[int] = []
        self.dev_seat = 0  # position in self.order of the seat whose turn it is
        self.conflicts: dict[int, Conflict] = {}
        # Per seat, the conflicts it must still settle, lowest territory first (what
        # open_items lists): kept up to date as conflicts are settled, so a conflict turn
        # never scans the settled ones.
        self.open_won: list[list[int]] = [[] for _ in range(n)]
        self.open_tied: list[list[int]] = [[] for _ in range(n)]
        self.first_leader_only = self.options.tie_window == "first-leader"
        self.conflict_pos = 0
        self.reaction: PendingReaction | None = None
        self.scoring_due: list[int] = []
        self.scoring_orders: dict[int, Score] = {}
        # Each scored age as compact facts per seat (see _seat_score), and beside them the
        # breakdowns readers see (age_scores), each made once, when first read.
        self.age_facts: list[tuple[tuple[Any, ...], ...]] = []
        self.age_dicts: list[dict[str, Any]] = []
        self.final: dict[str, Any] | None = None
        # Each event, compact: (audience, kind, age, *data), the audience a seat index or PUBLIC
        # (who may see it) and the data named by EVENT_FIELDS; the dicts readers see are made
        # only when someone reads the events (events_for).  One append per event, and a tuple
        # of plain values is soon untracked by the garbage collector, so a long game's history
        # costs collections next to nothing.
        self.events: list[tuple[Any, ...]] = []
        self.event_dicts: list[dict[str, Any]] = []  # the first events as readers see them (replaced, never changed)
        # The applied orders and, alongside, the seat of each (text made on demand): kept
        # apart, not as (seat, order) pairs, to spare the garbage collector a tuple per order.
        self.applied: list[Order] = []
        self.applied_by: list[int] = []
        self._log_text: list[str] = []  # order_log()'s lines made so far (replaced, never changed)
        self.completed: list[Milestone] = []  # the phases completed so far, oldest first
        self._start_age()

    # ---- the interface the service uses -------------------------------------------------

    def seat_index(self, seat: str) -> int:
        try:
            return self.seat_of[seat]
        except KeyError:
            raise NotYourDecisionError(f"no seat {seat!r} in this game") from None

    def parse(self, text: str) -> list[Order]:
        return parse_orders(text, self.board)

    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def round(self) -> int:
        return self.age

    def order_text(self, order: Order) -> str:
        return to_text(order)

    def result(self) -> Result:
        final = self.final
        if final is None:
            raise IllegalOrderError("the game is not over")
        # Every seat has its own place: the stack separates equal scores (final_tiebreak).
        return Result(ranking=tuple(final["ranking"]), scores=final["scores"],
                      tie_break=final["tiebreak"], breakdown=final["bonuses"], breakdown_key="bonuses")

    def scores_by_round(self) -> list[dict[str, Any]]:
        """Each age's scoring so far, oldest first: per seat, its breakdown and points."""
        return list(self.age_scores)

    def order_log(self) -> list[str]:
        """The applied orders as "<seat>: <order>" lines: with the setup, the whole game.
        Each line's text is made once and kept (a service asks for the log many times per
        order); the list returned is the caller's own."""
        lines = self._log_text
        if len(lines) != len(self.applied):
            # A new list, never one changed in place: a cached state is read by many threads.
            done = len(lines) if len(lines) < len(self.applied) else 0
            lines = lines[:done] + [f"{self.seats[s]}: {to_text(order)}"
                                    for s, order in zip(self.applied_by[done:], self.applied[done:])]
            self._log_text = lines
        return list(lines)

    @property
    def log(self) -> list[tuple[int, Order]]:
        """The applied orders as (seat index, order) pairs, oldest first."""
        return list(zip(self.applied_by, self.applied))

    def milestones(self) -> list[Milestone]:
        """The phases completed so far, in order: one order can complete several (the last
        development turn may end development, conflicts and scoring at once)."""
        return list(self.completed)

    def clone(self) -> "AztlanState":
        other = copy.copy(self)
        for name in ("score", "height", "chosen", "deck", "discard", "reserve",
                     "to_place", "removed_before", "removed_now", "placed_mask", "occupied_mask", "order",
                     "scoring_due", "age_facts", "events", "applied", "applied_by",
                     "control", "completed"):
            setattr(other, name, copy.copy(getattr(self, name)))
        other.power_left = [list(cards) for cards in self.power_left]
        other.played = [list(cards) for cards in self.played]
        other.hands = [list(hand) for hand in self.hands]
        other.pawns = [list(row) for row in self.pawns]
        other.conflicts = {t: conflict.copy() for t, conflict in self.conflicts.items()}
        other.open_won = [list(items) for items in self.open_won]
        other.open_tied = [list(items) for items in self.open_tied]
        other.reaction = self.reaction.copy() if self.reaction else None
        other.scoring_orders = dict(self.scoring_orders)
        return other

    def waiting(self) -> list[int]:
        """The seats that owe a decision now (fast; no options)."""
        phase = self.phase
        if phase == DEVELOPMENT:
            return [self.order[self.dev_seat]]
        if phase == CHOOSING:
            return [s for s, card in enumerate(self.chosen) if card is None]
        if phase == CONFLICT:
            if self.reaction:
                return [s for s in self.reaction.asked if s not in self.reaction.answers]
            return [self.order[self.conflict_pos]]
        if phase == SCORING:
            return [s for s in self.scoring_due if s not in self.scoring_orders]
        return []

    def is_waiting(self, s: int) -> bool:
        phase = self.phase
        if phase == DEVELOPMENT:
            return self.order[self.dev_seat] == s
        if phase == CHOOSING:
            return self.chosen[s] is None
        return s in self.waiting()

    def first_waiting(self) -> int | None:
        """waiting()[0], or None when nobody is asked, without making the list (play_out
        asks this before every order)."""
        phase = self.phase
        if phase == DEVELOPMENT:
            return self.order[self.dev_seat]
        if phase == CHOOSING:
            return self.chosen.index(None)  # a phase that has every card moves on
        if phase == CONFLICT:
            reaction = self.reaction
            if reaction is None:
                return self.order[self.conflict_pos]
            answers = reaction.answers
            for s in reaction.asked:
                if s not in answers:
                    return s
        elif phase == SCORING:
            scoring_orders = self.scoring_orders
            for s in self.scoring_due:
                if s not in scoring_orders:
                    return s
        return None

    def decisions(self, options: bool = True) -> list[Decision]:
        """Who must decide what now; `options` (private to each seat) on request."""
        return [self.decision_of(s, options) for s in self.waiting()]

    def decision_of(self, s: int, options: bool = True) -> Decision:
        """The decision seat `s` owes (it must be waiting)."""
        kind, simultaneous, scope = self._decision_shape(s)
        return Decision(self.seats[s], kind, simultaneous, scope, self.legal(s) if options else {})

    def _decision_shape(self, s: int) -> tuple[str, bool, tuple[int, ...]]:
        ids = self._ids
        if self.phase == CHOOSING:
            return "power", True, ()
        if self.phase == DEVELOPMENT:
            return "turn", False, ()
        if self.phase == CONFLICT:
            if self.reaction:
                return "reaction", True, ids([self.reaction.territory])
            won, tied = self.open_items(s)
            return "conflict", False, ids(sorted(won + tied))
        return "scoring", True, ()

    def _ids(self, indices: Sequence[int]) -> tuple[int, ...]:
        ids = self.board.ids
        return tuple([ids[i] for i in indices])

    def legal(self, s: int) -> dict[str, Any]:
        """The legal choices of seat `s` for the decision it owes (private to that seat)."""
        hand = self.hands[s]
        if self.phase == CHOOSING:
            return {"cards": list(self.power_left[s])}
        if self.phase == DEVELOPMENT:
            people = self.control[s]
            # A move starts where the seat has a pawn (move_from) or where this turn places
            # one, so any territory: move_to names every territory's destinations.
            return {"place": [t.id for t in self.board.territories],
                    "pawns_left": self.to_place[people],
                    "eagle": EAGLE_JAGUAR in hand and self._eagle_source(people) is not None,
                    "move_from": list(self._ids([t for t in range(self.masks.count)
                                                 if self.pawns[t][people]])),
                    "move_to": {origin: list(ends) for origin, ends in self.masks.destinations.items()}}
        if self.phase == CONFLICT:
            if self.reaction:
                return {"territory": self.board.territories[self.reaction.territory].id,
                        "sacred_games": SACRED_GAMES in hand}
            won, tied = self.open_items(s)
            return {"won": list(self._ids(won)), "tied": list(self._ids(tied)),
                    "tlatoani": hand.count(TLATOANI)}
        if self.phase == SCORING:
            card = self.chosen[s]
            return {"wild": self.card_type[card] == WILD if card else False,
                    "blessings": sorted({c for c in hand if c in BLESSINGS}),
                    "rafts": hand.count(RAFTS),
                    "rafts_pairs": [list(self._ids(pair)) for pair in self.rafts_pairs(s)],
                    "wild_types": list(TERRAIN_TYPES) if card and self.card_type[card] == WILD else []}
        return {}

    def submit(self, seat: str, orders: Sequence[Order]) -> list[Order]:
        """Apply a submission atomically.  Returns the orders left over because the game
        now waits for someone else (a declared battle's answer, another seat's turn);
        the caller keeps them to submit when the seat is asked again."""
        s = self.seat_index(seat)
        if not self.is_waiting(s):
            raise NotYourDecisionError(self._not_asked(s))
        if len(orders) > 1:
            self._dry_run(s, orders)
        turn = self._turn_context()
        for i, order in enumerate(orders):
            if self._already_done(s, order):
                continue
            if not self.is_waiting(s) or self._turn_context() != turn:
                return [o for o in orders[i:] if not self._already_done(s, o)]
            self.apply(seat, order)
        return []

    def _already_done(self, s: int, order: Order) -> bool:
        """'tie T' for a tie that already stands (a seat without cards lets ties stand
        by itself, possibly while its submission was being carried out)."""
        if not isinstance(order, LetTieStand) or self.phase != CONFLICT:
            return False
        conflict = self.conflicts.get(self.board.index_of.get(order.territory, -1))
        return conflict is not None and (conflict.resolved or s in conflict.passed)

    def _turn_context(self) -> tuple[int, str, int]:
        """Which turn this is: a submission never runs on into a later turn or phase."""
        return self.age, self.phase, self.conflict_pos if self.phase == CONFLICT else -1

    def _dry_run(self, s: int, orders: Sequence[Order]) -> None:
        """Check a whole submission on a copy that cannot see the deck."""
        trial = self.clone()
        trial.hidden = True
        trial.events, trial.event_dicts, trial.applied, trial.applied_by = [], [], [], []
        trial._log_text = []
        turn = trial._turn_context()
        for order in orders:
            if trial._already_done(s, order):
                continue
            while trial.reaction and s not in trial.reaction.asked:
                # Assume the battle is accepted: a Sacred Games would only add a card to
                # the seat's hand, so every later order stays legal.
                battle = trial.board.territories[trial.reaction.territory].id
                for other in trial.waiting():
                    trial.apply(trial.seats[other], React(battle, False))
            if not trial.is_waiting(s) or trial._turn_context() != turn:
                return
            trial.apply(trial.seats[s], order)

    def apply(self, seat: str, order: Order) -> None:
        """Validate one order and carry it out; nothing changes if it is illegal."""
        s = self.seat_of.get(seat)
        if s is None:
            s = self.seat_index(seat)  # raises
        # Whether the seat is asked (what waiting() says, without making its list) and what
        # it owes, the commonest phases first: every order passes here.
        phase = self.phase
        if phase == DEVELOPMENT:
            waiting, owed = self.order[self.dev_seat] == s, "turn"
        elif phase == CHOOSING:
            waiting, owed = self.chosen[s] is None, "power"
        elif phase == CONFLICT:
            reaction = self.reaction
            if reaction:
                waiting, owed = s in reaction.asked and s not in reaction.answers, "reaction"
            else:
                waiting, owed = self.order[self.conflict_pos] == s, "conflict"
        elif phase == SCORING:
            waiting, owed = s in self.scoring_due and s not in self.scoring_orders, "scoring"
        else:
            waiting, owed = False, ""
        if not waiting:
            raise NotYourDecisionError(self._not_asked(s))
        handler = self._HANDLERS[owed].get(type(order))
        if handler is None:
            if not any(type(order) in handlers for handlers in self._HANDLERS.values()):
                raise IllegalOrderError(f"not an Aztlán order: {order!r}")
            raise IllegalOrderError(f"the game asks you for {self._asking(s, owed)}")
        handler(self, s, order)
        self.applied.append(order)
        self.applied_by.append(s)

    def apply_asked(self, s: int, order: Order) -> None:
        """apply() for the seat index first_waiting() has just named (play_out's loop): that
        seat is asked, so neither its name nor its turn need checking again; the order is
        checked and carried out exactly as apply() does."""
        phase = self.phase
        if phase == DEVELOPMENT:
            owed = "turn"
        elif phase == CONFLICT:
            owed = "reaction" if self.reaction else "conflict"
        else:
            owed = _KIND_OF_PHASE.get(phase, "")
        handler = self._HANDLERS[owed].get(type(order))
        if handler is None:
            self.apply(self.seats[s], order)  # raises what apply() raises
            return
        handler(self, s, order)
        self.applied.append(order)
        self.applied_by.append(s)

    def _not_asked(self, s: int) -> str:
        if self.phase == OVER:
            return "the game is over"
        waiting = ", ".join(self.seats[w] for w in self.waiting())
        what = {CHOOSING: "you have already chosen your power card this age",
                DEVELOPMENT: "it is not your development turn",
                CONFLICT: "you have no conflict to settle now",
                SCORING: "your scoring turn is already in"}[self.phase]
        return f"{what}; the game waits for {waiting}"

    def owed_kind(self) -> str:
        """The kind of decision the waiting seats owe now."""
        if self.phase == CONFLICT:
            return "reaction" if self.reaction else "conflict"
        return _KIND_OF_PHASE.get(self.phase, "")

    def _asking(self, s: int, kind: str) -> str:
        if kind == "reaction":
            battle = self.board.territories[self.reaction.territory].id
            return f"your answer to the battle in {battle}: 'sacred {battle}' or 'accept {battle}'"
        if kind == "conflict":
            items = ", ".join(map(str, self._decision_shape(s)[2]))
            return (f"your conflict turn (territories {items}): 'battle', 'coexist', "
                    f"'tlatoani ... battle|coexist' or 'tie' with a territory")
        return {"power": "your power card for this age: 'card N'",
                "turn": "your development turn: 'place <territory> [move <from> to <to>]'",
                "scoring": "your scoring turn: 'score [wild <type>] [blessing <god>] [rafts <a> and <b>]'",
                }[kind]

    def _territory(self, ident: int) -> int:
        try:
            return self.board.index_of[ident]
        except KeyError:
            raise IllegalOrderError(f"there is no territory {ident}") from None

    def name(self, t: int) -> str:
        territory = self.board.territories[t]
        return f"{territory.id} ({territory.name})"

    # ---- choosing ------------------------------------------------------------------------

    def _start_age(self) -> None:
        allotment = PAWNS_PER_AGE[self.n][self.age - 1]
        reserve, removed_before, removed_now = self.reserve, self.removed_before, self.removed_now
        for p in range(len(self.peoples)):
            removed = removed_before[p] + removed_now[p]
            removed_now[p] = 0
            self.placed_mask[p] = 0
            take = min(allotment, reserve[p])
            # A short reserve (after Eagle and Jaguar pawns) is made up from removed pawns.
            topup = min(allotment - take, removed)
            reserve[p] -= take
            removed_before[p] = removed - topup
            self.to_place[p] = take + topup
        self.chosen = [None] * self.n
        self.phase = CHOOSING
        self.events.append((PUBLIC, "age", self.age, [self.peoples[p] for p in self.control]
                    if self.two_player else None))

    def _choose(self, s: int, order: ChooseCard) -> None:
        if order.number not in self.power_left[s]:
            left = ", ".join(map(str, self.power_left[s]))
            raise IllegalOrderError(f"you have no power card {order.number}; in your hand: {left}")
        self.chosen[s] = order.number
        seat = self.seats[s]
        self.events += (PUBLIC, "chosen", self.age, seat), (s, "my-card", self.age, seat, order.number)
        if None not in self.chosen:
            self._start_development()

    # ---- development ---------------------------------------------------------------------

    def turn_order(self) -> list[int]:
        """Most points first; on equal points the counter on top of the stack first."""
        return sorted(range(self.n), key=lambda s: (-self.score[s], -self.height[s]))

    def _start_development(self) -> None:
        self.completed.append(MILESTONES[self.age, CHOOSING])
        self.phase = DEVELOPMENT
        self.order = self.turn_order()
        self.dev_seat = len(self.order) - 1
        self.events.append((PUBLIC, "turn-order", self.age, [self.seats[s] for s in self.order]))
        self._next_turn()

    def _next_turn(self) -> None:
        n, order, to_place, control = self.n, self.order, self.to_place, self.control
        position = self.dev_seat
        for _ in range(n):
            position = (position + 1) % n
            if to_place[control[order[position]]]:
                self.dev_seat = position
                return
        self._reveal()

    def _eagle_source(self, people: int) -> str | None:
        """Where an Eagle and Jaguar pawn comes from: the reserve, else removed pawns."""
        if self.reserve[people]:
            return "reserve"
        if self.removed_before[people]:
            return "removed"
        return None

    def _turn(self, s: int, order: Turn) -> None:
        people = self.control[s]
        index_of = self.board.index_of
        place = index_of.get(order.place)
        if place is None:
            place = self._territory(order.place)  # raises
        eagle = source = None
        if order.eagle is not None:
            eagle = self._territory(order.eagle)
            if EAGLE_JAGUAR not in self.hands[s]:
                raise IllegalOrderError("you hold no Eagle and Jaguar Warriors card")
            source = self._eagle_source(people)
            if source is None:
                raise IllegalOrderError("Eagle and Jaguar Warriors: no pawn left in your reserve "
                                        "nor among pawns removed in earlier ages")
            if (self.options.eagle_placement == "placed-this-age"
                    and not (self.placed_mask[people] | 1 << place) >> eagle & 1):
                raise IllegalOrderError(f"Eagle and Jaguar Warriors: {self.name(eagle)} is not a territory "
                                        "where you placed a pawn this age (option eagle_placement)")
        move = order.move
        pawns = self.pawns
        if move is not None:
            start, end = index_of.get(move[0]), index_of.get(move[1])
            if start is None or end is None:
                start, end = self._territory(move[0]), self._territory(move[1])  # raises
            here = pawns[start][people] + (start == place) + (start == eagle)
            if not here:
                raise IllegalOrderError(f"you have no pawn in {self.name(start)} to move")
            if not self.masks.adjacent[start] >> end & 1:
                raise IllegalOrderError(f"{self.name(end)} is not adjacent to {self.name(start)} "
                                        "(a lake breaks adjacency)")
        # Legal: carry it out.
        pawns[place][people] += 1
        self.to_place[people] -= 1
        self.placed_mask[people] |= 1 << place
        occupied = self.occupied_mask[people] | 1 << place
        if eagle is not None:
            self._play(s, EAGLE_JAGUAR)
            if source == "reserve":
                self.reserve[people] -= 1
            else:
                self.removed_before[people] -= 1
            pawns[eagle][people] += 1
            occupied |= 1 << eagle
        if move is not None:
            row = pawns[start]
            row[people] -= 1
            pawns[end][people] += 1
            occupied |= 1 << end
            if not row[people]:
                occupied &= ~(1 << start)
        self.occupied_mask[people] = occupied
        self.events.append((PUBLIC, "turn", self.age, self.seats[s], order.place, order.eagle,
                             move))  # a tuple: the event's reader gets it as a list
        # _next_turn's commonest case inline: the next seat in turn order still has pawns.
        turn_order, position = self.order, self.dev_seat + 1
        if position < self.n and self.to_place[self.control[turn_order[position]]]:
            self.dev_seat = position
        else:
            self._next_turn()

    def _play(self, s: int, card: str) -> None:
        self.hands[s].remove(card)
        self.discard.append(card)

    # ---- conflict ------------------------------------------------------------------------

    def _reveal(self) -> None:
        for s in range(self.n):
            self.power_left[s].remove(self.chosen[s])
            self.played[s].append(self.chosen[s])
        self.events.append((PUBLIC, "reveal", self.age, {self.seats[s]: self.chosen[s] for s in range(self.n)}))
        self._start_conflicts()

    def _seat_of(self, people: int) -> int:
        return self.control.index(people) if self.two_player else people

    def _start_conflicts(self) -> None:
        self.completed.append(MILESTONES[self.age, DEVELOPMENT])
        self.phase = CONFLICT
        self.conflicts = conflicts = {}
        self.open_won = open_won = [[] for _ in range(self.n)]
        self.open_tied = open_tied = [[] for _ in range(self.n)]
        # Only territories that two or more peoples occupy can be disputed.
        seen = contested = 0
        for mask in self.occupied_mask:
            contested |= seen & mask
            seen |= mask
        seat_of = [self._seat_of(p) for p in range(len(self.peoples))] if self.two_player else range(self.n)
        chosen, pawns = self.chosen, self.pawns
        shown = []  # the event's account of each conflict: (territory, powers, winner, tied)
        for t in scoring.bits(contested):
            # One pass over the territory's pawns: each people's power and the seats with the highest.
            powers, top, leaders = {}, 0, []
            for p, count in enumerate(pawns[t]):
                if count:
                    seat = seat_of[p]
                    powers[p] = power = chosen[seat] * count
                    if power > top:
                        top, leaders = power, [seat]
                    elif power == top:
                        leaders.append(seat)
            if len(leaders) == 1:
                winner = leaders[0]
                open_won[winner].append(t)
                conflicts[t] = Conflict(t, powers, winner, [])
                shown.append((t, powers, winner, ()))
            else:
                leaders.sort(key=self.order.index)
                for seat in leaders[:1] if self.first_leader_only else leaders:
                    open_tied[seat].append(t)
                conflicts[t] = Conflict(t, powers, None, leaders)  # powers and leaders are never changed in place
                shown.append((t, powers, None, leaders))
        self.events.append((PUBLIC, "conflicts", self.age, shown))
        self.conflict_pos = 0
        self.reaction = None
        self._continue_conflicts()

    def open_items(self, s: int) -> tuple[list[int], list[int]]:
        """Territories seat `s` must settle in its conflict turn: won, and tied (Tlatoani or not)."""
        return list(self.open_won[s]), list(self.open_tied[s])

    def _settle(self, conflict: Conflict) -> None:
        """A conflict is settled: no seat has it open any more."""
        conflict.resolved = True
        t = conflict.territory
        if conflict.winner is not None:  # the common case, _close inline
            won = self.open_won[conflict.winner]
            if t in won:
                won.remove(t)
        for leader in conflict.leaders:
            self._close(self.open_tied[leader], t)

    @staticmethod
    def _close(items: list[int], t: int) -> None:
        if t in items:
            items.remove(t)

    def _continue_conflicts(self) -> None:
        while self.reaction is None:
            if self.conflict_pos >= self.n:
                self._start_scoring()
                return
            s = self.order[self.conflict_pos]
            tied = self.open_tied[s]
            if self.open_won[s] or (tied and self.hands[s]):
                return  # wait for the seat
            for t in list(tied):  # nothing to decide: a tied leader with no card lets the tie stand
                self._pass_tie(s, t)
            self.conflict_pos += 1

    def _open_item(self, s: int, ident: int, tied: bool) -> int:
        t = self.board.index_of.get(ident)
        if t is None:
            t = self._territory(ident)  # raises
        # Whether open_items(s) lists t, as asked (won, or tied).
        if t in (self.open_tied[s] if tied else self.open_won[s]):
            return t
        c = self.conflicts.get(t)
        if c is None:
            raise IllegalOrderError(f"there is no conflict in {self.name(t)}")
        if c.resolved:
            raise IllegalOrderError(f"the conflict in {self.name(t)} is already settled")
        if tied and c.winner == s:
            raise IllegalOrderError(f"you won {self.name(t)} outright: say 'battle {ident}' or 'coexist {ident}'")
        if not tied and s in c.leaders:
            raise IllegalOrderError(f"{self.name(t)} is a tie: say 'tlatoani {ident} battle|coexist' "
                                    f"or 'tie {ident}'")
        raise IllegalOrderError(f"you do not decide the conflict in {self.name(t)}")

    def _resolve(self, s: int, order: Resolve) -> None:
        if order.choice not in ("battle", "coexist"):
            raise IllegalOrderError("a conflict is settled by 'battle' or 'coexist'")
        t = self._open_item(s, order.territory, tied=order.tlatoani)
        conflict = self.conflicts[t]
        if order.tlatoani:
            if TLATOANI not in self.hands[s]:
                raise IllegalOrderError("you hold no Great Tlatoani card")
            self._play(s, TLATOANI)
            for leader in conflict.leaders:  # the tie is broken: s has won it, nobody else has it open
                self._close(self.open_tied[leader], t)
            insort(self.open_won[s], t)
            conflict.winner, conflict.leaders = s, []
            self.events.append((PUBLIC, "tlatoani", self.age, self.seats[s], order.territory))
        if order.choice == "coexist":
            self._settle(conflict)
            self.events.append((PUBLIC, "coexist", self.age, self.seats[s], order.territory))
            self._draw(s)
        else:
            self._declare_battle(s, t)
        self._continue_conflicts()

    def _declare_battle(self, s: int, t: int) -> None:
        self.events.append((PUBLIC, "battle", self.age, self.seats[s], self.board.ids[t]))
        # Every defeated seat (one whose people has pawns here) holding any card is asked, so no
        # answer shows which card it holds.  A seat controls one people (2 players: a faction).
        row, control, hands = self.pawns[t], self.control, self.hands
        asked = [d for d in self.order if d != s and hands[d] and row[control[d]]]
        if asked:
            self.reaction = PendingReaction(t, s, asked)
        else:
            self._finish_battle(t, s, sacred=())

    def _react(self, s: int, order: React) -> None:
        reaction = self.reaction  # apply() checked that a battle waits for this answer
        if self.board.index_of.get(order.territory) != reaction.territory:
            self._territory(order.territory)  # raises for a territory that does not exist
            raise IllegalOrderError(f"the battle to answer is in {self.name(reaction.territory)}")
        if order.sacred and SACRED_GAMES not in self.hands[s]:
            raise IllegalOrderError("you hold no Sacred Games card")
        reaction.answers[s] = order.sacred
        self.events.append((s, "my-answer", self.age, order.territory, order.sacred))
        if len(reaction.answers) == len(reaction.asked):
            self.reaction = None
            answers = reaction.answers
            sacred = [d for d in reaction.asked if answers[d]] if any(answers.values()) else ()
            for d in sacred:
                self._play(d, SACRED_GAMES)
            self._finish_battle(reaction.territory, reaction.winner, sacred)
            self._continue_conflicts()

    def _finish_battle(self, t: int, winner: int, sacred: Sequence[int]) -> None:
        """Remove the defeated; those who played Sacred Games stay and the winner coexists."""
        control = self.control
        keep = {control[winner]}
        if sacred:
            keep.update(control[d] for d in sacred)
        removed = self._remove_except(t, keep)
        self._settle(self.conflicts[t])
        self.events.append((PUBLIC, "battle-result", self.age, self.board.ids[t], self.seats[winner], removed,
                             [self.seats[d] for d in sacred] if sacred else []))
        if sacred:
            self._draw(winner)

    def _remove_except(self, t: int, keep: set[int]) -> dict[str, int]:
        removed = {}
        row = self.pawns[t]
        for p, count in enumerate(row):
            if count and p not in keep:
                removed[self.peoples[p]] = count
                self.removed_now[p] += count
                self.occupied_mask[p] &= ~(1 << t)
                row[p] = 0
        return removed

    def _let_tie_stand(self, s: int, order: LetTieStand) -> None:
        t = self._open_item(s, order.territory, tied=True)
        self._pass_tie(s, t)
        self._continue_conflicts()

    def _pass_tie(self, s: int, t: int) -> None:
        conflict = self.conflicts[t]
        conflict.passed.add(s)
        self._close(self.open_tied[s], t)
        if self.first_leader_only or conflict.passed >= set(conflict.leaders):
            # "If there is a tie for the highest power, they automatically coexist, but nobody
            # is rewarded; a weaker player beside them is removed."
            removed = self._remove_except(t, {self.control[leader] for leader in conflict.leaders})
            self._settle(conflict)
            self.events.append((PUBLIC, "tie", self.age, self.board.ids[t], [self.seats[leader] for leader in conflict.leaders],
                                 removed))

    def _draw(self, s: int) -> None:
        if not self.deck and self.discard and self.options.deck_exhausted == "reshuffle":
            self.reshuffles += 1
            self.deck = self.discard
            self.discard = []
            random.Random(f"{self.setup.seed}:reshuffle:{self.reshuffles}").shuffle(self.deck)
            self.events.append((PUBLIC, "reshuffle", self.age, len(self.deck)))
        if not self.deck:
            self.events.append((PUBLIC, "deck-empty", self.age, self.seats[s]))
            return
        card = self.deck.pop()
        if self.hidden:
            card = HIDDEN_CARD
        self.hands[s].append(card)
        seat = self.seats[s]
        self.events += (PUBLIC, "draw", self.age, seat), (s, "my-draw", self.age, seat, card)

    # ---- scoring -------------------------------------------------------------------------

    def _start_scoring(self) -> None:
        self.completed.append(MILESTONES[self.age, CONFLICT])
        self.phase = SCORING
        # Only seats with something to decide are asked; hand sizes and cards are public here.
        self.scoring_due = [s for s in self.order
                            if self.hands[s] or self.card_type[self.chosen[s]] == WILD]
        self.scoring_orders = {}
        if not self.scoring_due:
            self._score_age()

    def occupied(self, s: int) -> int:
        """The territories where seat `s`'s people has pawns, as a mask."""
        return self.occupied_mask[self.control[s]]

    def rafts_pairs(self, s: int) -> list[tuple[int, int]]:
        """Pairs of the seat's territories that Rafts and Canoes could join."""
        mine = self.occupied(s)
        pairs = set()
        for shore in self.masks.shore_masks:
            on = scoring.bits(shore & mine)
            for i, a in enumerate(on):
                for b in on[i + 1:]:
                    if not self.masks.adjacent[a] >> b & 1:
                        pairs.add((a, b))
        return sorted(pairs)

    def _score_order(self, s: int, order: Score) -> None:
        card = self.chosen[s]
        if order.wild is not None:
            if self.card_type[card] != WILD:
                raise IllegalOrderError(f"your power card {card} is not the wild card")
            if order.wild not in TERRAIN_TYPES:
                raise IllegalOrderError(f"the wild card takes a territory type: {', '.join(TERRAIN_TYPES)}")
        needed: dict[str, int] = {}
        for god in order.blessings:
            if god not in BLESSINGS:
                raise IllegalOrderError(f"no blessing {god!r}")
            needed[god] = needed.get(god, 0) + 1
        if order.rafts:
            needed[RAFTS] = len(order.rafts)
        for card_id, count in needed.items():
            if self.hands[s].count(card_id) < count:
                raise IllegalOrderError(f"you hold {self.hands[s].count(card_id)} {card_id} card(s), "
                                        f"not {count}")
        pairs = self.rafts_pairs(s) if order.rafts else []
        for a_id, b_id in order.rafts:
            a, b = sorted((self._territory(a_id), self._territory(b_id)))
            if (a, b) not in pairs:
                raise IllegalOrderError(f"Rafts and Canoes: {self.name(a)} and {self.name(b)} must be two of "
                                        "your territories on the same lake's shore, not already adjacent")
        self.scoring_orders[s] = order
        self.events.append((s, "my-scoring", self.age, order))
        if len(self.scoring_orders) == len(self.scoring_due):
            self._score_age()

    def score_seat(self, s: int, order: Score | None) -> dict[str, Any]:
        """The age's score for seat `s` with the cards it plays (no state change)."""
        return self._breakdown(self._seat_score(s, order))

    def _seat_score(self, s: int, order: Score | None) -> tuple[Any, ...]:
        """What score_seat says, as the facts its dict is made from: (card, type, wild,
        domains as masks, the seat's territories as a mask, the order, points).  Scoring keeps
        these and makes the dicts only when someone reads them (age_scores)."""
        order = order or NO_CARDS
        masks = self.masks
        adjacent = masks.adjacent
        if order.rafts:  # each raft joins two territories for this scoring only
            adjacent = list(adjacent)
            for a_id, b_id in order.rafts:
                a, b = self.board.index_of[a_id], self.board.index_of[b_id]
                adjacent[a] |= 1 << b
                adjacent[b] |= 1 << a
        mine = self.occupied_mask[self.control[s]]
        found = scoring.domains(mine, adjacent)
        card = self.chosen[s]
        kind = self.card_type[card]
        wild = kind == WILD
        type_masks = masks.type_masks
        if wild:
            kind = order.wild or scoring.best_wild_type(found, type_masks)
        total = scoring.total_score(found, type_masks[kind])
        for god in order.blessings:
            total += 2 * (mine & type_masks[BLESSINGS[god]]).bit_count()
        return card, kind, wild, found, mine, order, total

    def _breakdown(self, facts: tuple[Any, ...]) -> dict[str, Any]:
        """A seat's scoring as readers see it, from _seat_score's facts (and, once the age is
        scored, the seat's new total)."""
        card, kind, wild, found, mine, order, total, *after = facts
        type_masks = self.masks.type_masks
        type_mask = type_masks[kind]
        ids = self.board.ids
        parts = []
        for domain in found:
            size, matching = domain.bit_count(), (domain & type_mask).bit_count()
            parts.append({"territories": [ids[t] for t in scoring.bits(domain)], "size": size,
                          "matching": matching, "points": scoring.domain_value(size, matching)})
        blessings = [{"card": god, "type": BLESSINGS[god], "points": 2 * (mine & type_masks[BLESSINGS[god]]).bit_count()}
                     for god in order.blessings]
        breakdown = {"card": card, "type": kind, "wild": wild, "domains": parts, "blessings": blessings,
                     "rafts": [list(pair) for pair in order.rafts], "points": total}
        if after:
            breakdown["total"] = after[0]
        return breakdown

    @property
    def age_scores(self) -> list[dict[str, Any]]:
        """Each scored age, oldest first: per seat (in that age's turn order), its breakdown
        (score_seat's) and its new total.  Made when first read; a new list replaces the
        old, never one changed in place (threads read cached states at once)."""
        made = self.age_dicts
        if len(made) < len(self.age_facts):
            seats = self.seats
            self.age_dicts = made = made + [{seats[s]: self._breakdown(facts) for s, *facts in age}
                                            for age in self.age_facts[len(made):]]
        return made

    def _advance_counter(self, s: int, gain: int) -> None:
        """Move a counter; one that lands on an occupied score goes on top of the stack."""
        if gain:
            self.score[s] += gain
            self.height[s] = self.next_height
            self.next_height += 1

    def _score_age(self) -> None:
        scored = []
        scoring_orders, score = self.scoring_orders, self.score
        for s in self.order:
            order = scoring_orders.get(s)
            facts = self._seat_score(s, order)
            if order:
                for god in order.blessings:
                    self._play(s, god)
                for _ in order.rafts:
                    self._play(s, RAFTS)
            self._advance_counter(s, facts[-1])
            scored.append((s, *facts, score[s]))
        self.age_facts.append(tuple(scored))
        self.completed.append(MILESTONES[self.age, SCORING])
        # The event names the age's breakdown by its place in age_scores (made when read).
        self.events.append((PUBLIC, "scores", self.age, len(self.age_facts) - 1))
        if self.age == AGES:
            self._finish()
            return
        if self.two_player:
            self.control.reverse()  # "players swap the control of factions"
        self.age += 1
        self._start_age()

    def _finish(self) -> None:
        bonuses = {}
        for s in self.order:
            offerings = self.hands[s].count(OFFERING)
            bonus = {"unused_power": sum(self.card_points[c] for c in self.power_left[s]),
                     "unused_power_cards": list(self.power_left[s]),
                     "prosperity": len(self.hands[s]),
                     "offerings": offerings_bonus(offerings, self.options.offerings_beyond_five),
                     "offering_cards": offerings,
                     "hand": sorted(self.hands[s])}
            bonus["points"] = bonus["unused_power"] + bonus["prosperity"] + bonus["offerings"]
            self._advance_counter(s, bonus["points"])
            bonus["total"] = self.score[s]
            bonuses[self.seats[s]] = bonus
        below_wins = self.options.final_tiebreak == "below"
        ranking = sorted(range(self.n), key=lambda s: (-self.score[s],
                                                       self.height[s] if below_wins else -self.height[s]))
        self.phase = OVER
        self.final = {"scores": {self.seats[s]: self.score[s] for s in range(self.n)},
                      "bonuses": bonuses,
                      "ranking": [self.seats[s] for s in ranking],
                      "winner": self.seats[ranking[0]],
                      "tiebreak": self.options.final_tiebreak}
        self.events.append((PUBLIC, "game-over", self.age, *(self.final[name] for name in EVENT_FIELDS["game-over"])))

    def events_for(self, reader: int | None) -> list[dict[str, Any]]:
        """The events `reader` may see (public ones and its own), oldest first."""
        return [dict(event) for event, (audience, *_) in zip(self._event_dicts(), self.events)
                if audience == PUBLIC or audience == reader]

    def _event_dicts(self) -> list[dict[str, Any]]:
        """Every event as readers see it, {"type", "age", **data}: each made once, when first read.
        A new list replaces the old, never one changed in place: threads share cached states
        and read them at the same time."""
        made = self.event_dicts
        if len(made) < len(self.events):
            more = []
            for _, kind, age, *data in self.events[len(made):]:
                event = {"type": kind, "age": age}
                if kind == "scores":  # kept as the age's place in age_scores
                    data = [self.age_scores[data[0]]]
                elif kind == "my-scoring":  # kept as the order, its text made here
                    data = [to_text(data[0])]
                elif kind == "turn" and data[3] is not None:  # the move, kept as the order's tuple
                    data[3] = list(data[3])
                elif kind == "conflicts":  # kept as (territory, powers by people, winner, tied seats)
                    data = [[self._conflict_shown(*conflict) for conflict in data[0]]]
                event.update(zip(EVENT_FIELDS[kind], data))
                more.append(event)
            self.event_dicts = made = made + more
        return made

    def _conflict_shown(self, t: int, powers: dict[int, int], winner: int | None,
                        tied: Sequence[int]) -> dict[str, Any]:
        """A conflict as the "conflicts" event tells it."""
        peoples, seats = self.peoples, self.seats
        return {"territory": self.board.ids[t], "powers": {peoples[p]: power for p, power in powers.items()},
                "winner": None if winner is None else seats[winner], "tied": [seats[s] for s in tied]}

    def view(self, seat: str | None) -> dict[str, Any]:
        """What `seat` may see (None: a spectator); see views.py."""
        from engine.aztlan.views import build_view
        return build_view(self, None if seat is None else self.seat_index(seat))


# Each kind of decision: the order types that answer it, each with the method that carries it out.
AztlanState._HANDLERS = {"power": {ChooseCard: AztlanState._choose},
                         "turn": {Turn: AztlanState._turn},
                         "conflict": {Resolve: AztlanState._resolve, LetTieStand: AztlanState._let_tie_stand},
                         "reaction": {React: AztlanState._react},
                         "scoring": {Score: AztlanState._score_order},
                         "": {}}
