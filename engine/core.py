"""The whole contract between a game and the service (docs/engine.md).

In the spirit of OpenSpiel's Game/State split: a `Game` holds the static facts (name, seats,
player counts, options, rounds and phases, the kinds of decision, bots) and builds a `State`
from a game record.  A `State` is a game in progress: who must decide what (`decisions`),
parsing orders and their canonical text, applying them, each seat's `view`, and at the end a
typed `Result`.  The service never looks inside a state and names no game: it finds games
through the registry (`engine.games()`, the `pbem.games` entry-point group).
"""
from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, Sequence, TypeVar

OVER = "over"  # the phase of a game that has ended


class OrderError(ValueError):
    """An order that cannot be accepted; the message is meant for the player."""


class ParseError(OrderError):
    """Text that is not in the order grammar.  `expected` says what would have been."""

    def __init__(self, message: str, *, line: str = "", expected: str = ""):
        super().__init__(message)
        self.line = line
        self.expected = expected


class IllegalOrderError(OrderError):
    """A well-formed order that the rules do not allow now."""


class NotYourDecisionError(IllegalOrderError):
    """The seat is not asked anything of this kind now."""


class SetupError(ValueError):
    """A game that cannot be set up as asked (bad players, options, board or edition)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One seat owes one decision.

    `simultaneous` decisions are secret and collected from several seats at once;
    the others are taken in turn.  `scope` is public (for example the territories a
    conflict turn must settle); `options` describes the legal choices and is private
    to the seat: views show it to that seat only.
    """

    seat: str
    kind: str
    simultaneous: bool
    scope: tuple[Any, ...] = ()
    options: dict[str, Any] = field(default_factory=dict, compare=False)

    def public(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "simultaneous": self.simultaneous,
                "scope": list(self.scope)}

    def private(self) -> dict[str, Any]:
        return {**self.public(), "options": self.options}


@dataclass(frozen=True, slots=True)
class Milestone:
    """A phase of the game that has just been completed: `round` (Aztlán: the age) and the
    `phase`'s name; `scored` when the phase ended with a scoring of the round (its results
    are out).  The service mails a report after a scored milestone and may send a short
    notice after the others."""

    round: int
    phase: str
    scored: bool = False


@dataclass(frozen=True, slots=True)
class DecisionKind:
    """A kind of decision a game asks for (`Decision.kind` names one).

    `title` is its display name ("development turn"); `syntax` a short grammar hint for
    players ("place T [move A to B]"); `hours` the default deadline, in hours, of one such
    decision; `simultaneous`: secret and collected from several seats at once, else in turn.

    The words the service's mails use, each with a default from the others: `ask` finishes
    "it is your turn to ..." ("place a tribe pawn"); `noun` names one in a sentence,
    with its article ("a development turn"); `help` says in a sentence how to answer it
    ("place T, optionally with 'eagle T'"; by default the `syntax`).  `words` are the words
    its orders start with, which tell an order from prose in a mail (by default the first
    word of each `|` alternative of the syntax: "battle T | tie T" gives battle and tie).
    `rule` explains, in one sentence for a player new to the game, the rule behind the
    decision (what it decides and what follows); the game's rules page has the rest (empty:
    the page shows the `help` alone).

    `per_order`: each order of this kind is a decision of its own, so a seat that still owes
    the kind after an order is asked anew (a final turn of two actions, one order each).  By
    default a seat that still owes the same kind after its orders, with nobody moving in
    between, is finishing one decision (conflicts settled one by one) and is not asked again.
    """

    name: str
    title: str
    syntax: str
    hours: int
    simultaneous: bool
    ask: str = ""
    noun: str = ""
    help: str = ""
    words: tuple[str, ...] = ()
    rule: str = ""
    per_order: bool = False

    def __post_init__(self) -> None:
        if not self.words:
            firsts = (alternative.split()[0] for alternative in self.syntax.split("|") if alternative.split())
            object.__setattr__(self, "words", tuple(dict.fromkeys(
                word for word in firsts if word.isalpha() and word.islower())))
        if not self.ask:
            object.__setattr__(self, "ask", f"play your {self.title}")
        if not self.noun:
            article = "an" if self.title[:1].lower() in "aeiou" else "a"
            object.__setattr__(self, "noun", f"{article} {self.title}")
        if not self.help:
            object.__setattr__(self, "help", self.syntax)


@dataclass(frozen=True, slots=True)
class Option:
    """A rule option a game record may set.  The value is one of `choices`, or else a whole
    number from `low` to `high`; `default` is what an omitted option means; `help` is one line
    for people choosing it, and `meanings` a short sentence for each choice, saying what the
    game does with that value (where people choose it, each value is explained)."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    low: int | None = None
    high: int | None = None
    meanings: Mapping[Any, str] = field(default_factory=dict, compare=False)

    def meaning(self, value: Any) -> str:
        """What `value` of this option does ("" when the game does not say)."""
        return self.meanings.get(value, "")

    def check(self, value: Any) -> Any:
        """The value if this option allows it, else a SetupError that says what it allows."""
        if self.choices:
            if value not in self.choices or isinstance(value, bool) != isinstance(self.default, bool):
                raise SetupError(f"option {self.name} must be one of "
                                 f"{', '.join(map(str, self.choices))}, not {value!r}")
            return value
        if (isinstance(value, bool) or not isinstance(value, int)
                or not (self.low is None or value >= self.low) or not (self.high is None or value <= self.high)):
            raise SetupError(f"option {self.name} must be a whole number from {self.low} to {self.high}, "
                             f"not {value!r}")
        return value


def check_options(options: Sequence[Option], given: Any) -> dict[str, Any]:
    """A record's `options` (None or a JSON object) checked against a game's options, with
    every omitted one at its default."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise SetupError("options must be a JSON object")
    known = {option.name: option for option in options}
    for key in given:
        if key not in known:
            raise SetupError(f"unknown option {key!r}; known: {', '.join(sorted(known))}")
    return {name: option.check(given[name]) if name in given else option.default
            for name, option in known.items()}


def check_player(number: int, player: Any, seats: Sequence[str], taken: Sequence[str],
                 max_name: int = 60) -> tuple[str, str]:
    """Entry `number` (from 1) of a record's `players`, a seat string or an object with a
    `seat` and an optional `name`: its seat (one of `seats`, none of `taken`) and its name."""
    if isinstance(player, str):
        player = {"seat": player}
    if not isinstance(player, dict):
        raise SetupError(f"player {number}: expected an object with a 'seat'")
    seat = player.get("seat")
    if seat not in seats:
        raise SetupError(f"player {number}: seat must be one of {', '.join(seats)}, not {seat!r}")
    if seat in taken:
        raise SetupError(f"seat {seat} appears twice")
    name = player.get("name", seat)
    if not isinstance(name, str) or not name.strip() or len(name) > max_name:
        raise SetupError(f"player {number}: name must be 1 to {max_name} characters")
    return seat, name


@dataclass(frozen=True, eq=False)
class Result(Mapping[str, Any]):
    """How a game ended.

    `ranking` lists every seat best first, seats with equal scores in the order the game's
    tie-breaks put them; `tie_break` names the rule that did (a short name the game documents;
    Aztlán: its final_tiebreak option, `below` or `top`).  `places` gives each seat its place,
    1 for the best; seats the tie-breaks cannot separate share one, and the next place skips
    (1, 2, 2, 4).  By default every seat has its own, in ranking order.  `breakdown` is
    JSON-able data per seat saying where the final points came from, stored under
    `breakdown_key` (Aztlán: `bonuses`, the end-of-game bonuses).

    It is also a read-only mapping of its JSON (`to_json()`): `result["scores"]` works as on
    the plain dicts results used to be, and a Result equals a dict holding its JSON, so a
    stored result compares with a fresh one.
    """

    ranking: tuple[str, ...]
    scores: Mapping[str, int]
    tie_break: str
    breakdown: Mapping[str, Any] = field(default_factory=dict)
    places: Mapping[str, int] = field(default_factory=dict)
    breakdown_key: str = "breakdown"

    def __post_init__(self) -> None:
        if len(set(self.ranking)) != len(self.ranking) or set(self.ranking) != set(self.scores):
            raise ValueError("a result ranks each seat it scores exactly once")
        if not self.places:
            object.__setattr__(self, "places", {seat: i for i, seat in enumerate(self.ranking, start=1)})
        for i, seat in enumerate(self.ranking):
            place = self.places[seat]
            if place != i + 1 and (i == 0 or place != self.places[self.ranking[i - 1]]):
                raise ValueError(f"{seat} is ranked {i + 1} but placed {place}")

    @property
    def winner(self) -> str | None:
        """The seat in first place alone, or None when several share it."""
        first = [seat for seat in self.ranking if self.places[seat] == 1]
        return first[0] if len(first) == 1 else None

    @property
    def shared(self) -> bool:
        """Whether any place is shared."""
        return len(set(self.places.values())) < len(self.places)

    def to_json(self) -> dict[str, Any]:
        """The result as records and the service store it: scores, breakdown, ranking, winner
        and tie-break; places only when some are shared."""
        data = {"scores": dict(self.scores), self.breakdown_key: self.breakdown,
                "ranking": list(self.ranking), "winner": self.winner, "tiebreak": self.tie_break}
        if self.shared:
            data["places"] = dict(self.places)
        return data

    def __getitem__(self, key: str) -> Any:
        return self.to_json()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_json())

    def __len__(self) -> int:
        return len(self.to_json())


class State(Protocol):
    """A game in progress.  Mutable; `clone()` gives an independent copy.

    Seats are named by strings (Aztlán: tribe names), in the record's player order;
    `waiting()` gives seat indices into `seats`.
    """

    game: str  # the Game's name
    seats: tuple[str, ...]
    round: int  # the current round, from 1 (Aztlán: the age)
    phase: str  # the current phase: one of the Game's `phases`, or OVER once the game is over

    def waiting(self) -> list[int]: ...
    # Optional (play_out reads it with a default): waiting()[0] without the list, None when
    # nobody is asked.
    # def first_waiting(self) -> int | None: ...
    # Optional, with first_waiting (play_out reads it with a default): apply(seats[s], order)
    # for the seat first_waiting() has just named, trusting that it is asked.
    # def apply_asked(self, s: int, order: Any) -> None: ...
    def decisions(self, options: bool = True) -> list[Decision]: ...
    def parse(self, text: str) -> list[Any]: ...
    def order_text(self, order: Any) -> str: ...
    def apply(self, seat: str, order: Any) -> None: ...
    def submit(self, seat: str, orders: Sequence[Any]) -> list[Any]: ...
    def is_over(self) -> bool: ...
    def result(self) -> Result: ...
    def view(self, seat: str | None) -> dict[str, Any]: ...
    def order_log(self) -> list[str]: ...
    # Optional (`decision_line` below reads it with a default): the order log's length when
    # the question owed now was asked.  Orders that ride with a decision without answering it
    # (Azteca's card plays and deals) leave it where it was: they are secret, so they must not
    # restart the deadline every reader sees (docs/deadlines.md).
    # def decision_line(self) -> int: ...
    def milestones(self) -> list[Milestone]: ...
    def scores_by_round(self) -> list[dict[str, Any]]: ...
    def clone(self) -> "State": ...


class Bot(Protocol):
    """Plays one seat: an order for the decision seat index `s` owes now.  A bot reads only
    what that seat may know."""

    name: str

    def order(self, state: Any, s: int) -> Any: ...


class Game(Protocol):
    """A game plug-in: the static facts, and how to start a game from a record."""

    name: str  # the registry name, as records write it ("aztlan")
    title: str  # for people ("Aztlán")
    min_players: int
    max_players: int
    seats: tuple[str, ...]  # every seat name a game may use
    round_name: str  # what a round is called ("age")
    phases: tuple[str, ...]  # the phases of a round, in order
    decision_kinds: tuple[DecisionKind, ...]  # every kind of decision a state may ask
    options: tuple[Option, ...]
    bots: tuple[str, ...]  # the bot kinds make_bot knows; "random" (any legal order) always
    stand_in: str  # the bot that plays a seat nobody plays (resigned, abandoned, late); one of bots

    def make_bot(self, kind: str, seed: int | str = 0) -> Bot: ...

    def new_game(self, record: dict[str, Any]) -> State:
        """The game a record's setup describes.  Seats sit in the record's `players` order,
        exactly as given (the caller decides who sits first; see `seating`)."""

    def seating(self, seed: int | str, count: int) -> list[str]:
        """A seating for `count` players drawn from the seed, for callers that leave the
        order to chance (a caller that balances who sits first writes its own order)."""

    # Optional (`forced_order` below reads it with a default):
    # def forced_order(self, state: State, seat: str) -> str | None:
    #     """The canonical text of the one legal order `seat` can give now, or None when it has
    #     a real choice (or owes nothing).  Read from the seat's own options: the service
    #     answers such a question for the seat (docs/deadlines.md, "Forced answers")."""


PUBLIC = -1  # an event's audience when every seat and spectator may read it
_Logged = TypeVar("_Logged", bound="LoggedState")


class LoggedState:
    """The parts of `State` a game may keep the common way, as a base class: its phase is
    OVER at the end, `final` holds its Result then, `applied` lists (seat index, order)
    pairs, and each of `events` has its reader in `audiences` (a seat index or PUBLIC).  The
    game still writes `order_text`, `view` and the rest."""

    phase: str
    final: Result | None
    seats: list[str]
    applied: list[tuple[int, Any]]
    events: list[dict[str, Any]]
    audiences: list[int]
    # The lists that are only ever appended to, and whose entries never change once made.
    histories: ClassVar[tuple[str, ...]] = ("events", "audiences", "applied")

    def copied(self: _Logged, *shared: Any) -> _Logged:
        """A deep copy of the state (what `State.clone` gives), except for `shared` (parts that
        never change, such as the setup) and the entries of its histories: the copy gets new
        history lists holding the same entries, rather than copies of every event of a long
        game (most of a deep copy's time)."""
        memo: dict[int, Any] = {id(part): part for part in shared}
        for name in self.histories:
            history = getattr(self, name)
            memo[id(history)] = list(history)
        return copy.deepcopy(self, memo)

    def order_text(self, order: Any) -> str:
        raise NotImplementedError

    def is_over(self) -> bool:
        return self.phase == OVER

    def result(self) -> Result:
        if self.final is None:
            raise IllegalOrderError("the game is not over")
        return self.final

    def events_for(self, reader: int | None) -> list[dict[str, Any]]:
        """The events `reader` (a seat index, None: a spectator) may read, oldest first."""
        return [event for event, audience in zip(self.events, self.audiences)
                if audience == PUBLIC or audience == reader]

    def order_log(self) -> list[str]:
        return [f"{self.seats[s]}: {self.order_text(order)}" for s, order in self.applied]


def submit_in_turn(state: State, seat: str, orders: Sequence[Any]) -> list[Any]:
    """`State.submit` for games whose orders need nothing but the seat's turn: the whole
    submission is checked on a copy first, then carried out while the seat is still asked;
    the orders left when the game moves on to another seat are returned."""
    s = state.seats.index(seat) if seat in state.seats else -1
    trial = state.clone()
    for i, order in enumerate(orders):
        if i and s not in trial.waiting():
            break
        trial.apply(seat, order)
    for i, order in enumerate(orders):
        if i and s not in state.waiting():
            return list(orders[i:])
        state.apply(seat, order)
    return []


def forced_order(game: Game, state: State, seat: str) -> str | None:
    """The one legal order `seat` can give now, if the game says its question has only one
    answer (`Game.forced_order`, optional: a game without it answers nothing itself)."""
    method = getattr(game, "forced_order", None)
    return method(state, seat) if method is not None else None


def decision_line(state: State) -> int:
    """The order log's length when the question owed now was asked (`State.decision_line`,
    optional: by default every order asks a new question)."""
    method = getattr(state, "decision_line", None)
    return method() if method is not None else len(state.order_log())


def play_out(state: State, bots: Sequence[Bot], limit: int = 100_000) -> State:
    """Let bots (one per seat, by seat index) play until the game ends."""
    waiting, apply, seats = state.waiting, state.apply, state.seats  # looked up once: this loop is the bench's
    first = getattr(state, "first_waiting", None)
    if first is not None:  # the optional shortcut: the seat waiting()[0] would give, or None
        # and its optional partner: apply() for the seat it named, without checking that seat again
        apply_asked = getattr(state, "apply_asked", None)
        if apply_asked is None:
            apply_asked = lambda s, order: apply(seats[s], order)  # noqa: E731
        for _ in range(limit):
            s = first()
            if s is None:
                return state
            apply_asked(s, bots[s].order(state, s))
        raise RuntimeError("the game did not end")
    for _ in range(limit):
        asked = waiting()
        if not asked:
            return state
        s = asked[0]
        apply(seats[s], bots[s].order(state, s))
    raise RuntimeError("the game did not end")


# The names the service has used so far.
GameRules = Game
GameState = State
