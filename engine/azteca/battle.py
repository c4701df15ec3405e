"""Azteca's land battle (14.6-14.14) as a small state machine the Flower War drives.

A battle is built from what the Flower War brings (the attacking army; the defending army
and/or the Reserve, or a neutral territory; cards played, cousins who may declare) and from
dice the game rolls (`EditionDice`: the edition's faces and the game's seeded RNG).  It runs
until a seat must decide something (`pending()`: the Reserve's commitment, a cousin's
declaration, which counters are lost, continue or retreat, a warrior's promotion) and takes
each answer as a plain value (`answer()`).  A choice with one possible answer is taken at once
unless that would tell a secret by its timing, and a seat's standing orders (`Standing`) answer
for it in advance, so a play-by-mail battle asks as little as it can.  `outcome()` says what the game must change afterwards.  Readings of
rules that are unclear are in docs/rules-azteca.md, "Battles".  The lake battle (13.1) shares
the dice, questions and standing orders and lives in engine/azteca/lake.py.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import product
from typing import Any, Callable, Mapping, Protocol, Sequence

from engine.azteca.components import LANCE, Edition, packaged_edition
from engine.core import IllegalOrderError, NotYourDecisionError

ATTACKER, DEFENDER = "attacker", "defender"
WARRIOR, JAGUAR = "warrior", "jaguar"
POINTS = {WARRIOR: 1, JAGUAR: 2}  # 14.7: a warrior is worth 1 combat point, a Jaguar knight 2
WARRIORS_FIRST, JAGUARS_FIRST = (WARRIOR, JAGUAR), (JAGUAR, WARRIOR)
# The questions a battle asks.
RESERVE, COUSIN, LOSSES, RETREAT, EXPERIENCE, CONTINUE = (
    "reserve", "cousin", "losses", "retreat", "experience", "continue")
# The parts of a side.  Rank says in which order a side's counters are captured (14.13, 14.14):
# its own troops first, then "Reinforcements" troops, then cousins' counters.
ARMY, NEUTRAL, REINFORCEMENT = "army", "neutral", "reinforcement"
RANK = {ARMY: 0, RESERVE: 0, NEUTRAL: 0, REINFORCEMENT: 1, COUSIN: 2}
NEUTRAL_ARMY = {"valley": (1, 1), "outer": (0, 3)}  # 14.12: (warriors, Jaguar knights)
OVER = "over"
NONE = "none"  # the answer that declines (no cousin counter, no promotion)


class Dice(Protocol):
    def roll(self, colour: str) -> str:
        """One face of a die of this colour ("white" faces are "1" to "6")."""


class EditionDice:
    """The edition's dice rolled with the caller's RNG (the game's seeded `random.Random`)."""

    def __init__(self, faces: Mapping[str, Sequence[str]], rng: random.Random):
        self.faces, self.rng = faces, rng

    def roll(self, colour: str) -> str:
        faces = self.faces[colour]
        return faces[self.rng.randrange(len(faces))]


def colours(mine: int, theirs: int) -> str:
    """13.1, 14.7: the strong side (more combat points) rolls yellow, the weak side red; a tie red."""
    return "yellow" if mine > theirs else "red"


def gets_defence_die(terrain: str | None, *, over_dike: bool, attacker: str, neutral: bool) -> bool:
    """14.8: one yellow defence die when attacked through mountain, marsh (chinampas are marsh) or
    a dike, "except the Aztec player" on his dike; 13.3: a NEUTRAL Tizapan loses its marsh die to
    an attack over the dike, a captured one keeps it.  Never more than one die (14.8 N.B.)."""
    if over_dike and attacker == "aztecs":
        return terrain is not None and not neutral
    return over_dike or terrain in ("mountain", "marsh")


@dataclass(frozen=True, slots=True)
class Force:
    """Counters of one part of a side."""
    warriors: int = 0
    jaguars: int = 0

    @property
    def count(self) -> int:
        return self.warriors + self.jaguars

    @property
    def points(self) -> int:
        return self.warriors * POINTS[WARRIOR] + self.jaguars * POINTS[JAGUAR]


@dataclass(frozen=True, slots=True)
class Standing:
    """Answers a seat gives in advance; None leaves that question to be asked.
    losses: the kinds lost first, e.g. WARRIORS_FIRST (an army's counters before the Reserve's).
    retreat_below: retreat all that may (on the lake: stop) once my side's combat points are
    below this; fight on otherwise.  reserve: commit up to this many Reserve counters, Jaguar
    knights first.  cousin: WARRIOR, JAGUAR or "none" (none if the Reserve has no such counter).
    promote: take the Jaguar knight a victory offers (an army's warrior before the Reserve's)."""
    losses: tuple[str, ...] | None = None
    retreat_below: int | None = None
    reserve: int | None = None
    cousin: str | None = None
    promote: bool | None = None


# What a seat that misses its deadline answers (the caller's choice to use it).
DEFAULT = Standing(losses=WARRIORS_FIRST, retreat_below=0, reserve=4, cousin=NONE, promote=True)


@dataclass(frozen=True, slots=True)
class Ask:
    """A question to one seat: `options` lists every legal answer (plain values)."""
    seat: str
    kind: str
    options: tuple[Any, ...]
    about: dict[str, Any] = field(default_factory=dict, compare=False)  # what the seat needs to know


class Machine:
    """Questions and answers shared by the land and lake battles: each step asks what it must,
    the answers are collected in any order, and the next step reads them."""

    def __init__(self, dice: Dice, standing: Mapping[str, Standing]):
        self.dice = dice
        self.standing = dict(standing)
        self.step = "start"
        self.asks: dict[tuple[str, str], Ask] = {}
        self.answers: dict[tuple[str, str], Any] = {}
        self.log: list[dict[str, Any]] = []  # what happened, for the game's events

    def pending(self) -> list[Ask]:
        """The questions still open; all may be answered in any order (they are secret until
        the step resolves)."""
        return [ask for key, ask in self.asks.items() if key not in self.answers]

    def is_over(self) -> bool:
        return self.step == OVER

    def answer(self, seat: str, kind: str, value: Any) -> None:
        ask = self.asks.get((seat, kind))
        if ask is None or (seat, kind) in self.answers:
            raise NotYourDecisionError(f"{seat} is not asked for {kind} in this battle now")
        if value not in ask.options:
            raise IllegalOrderError(f"{value!r} is not a legal {kind} answer; legal: {list(ask.options)}")
        self.answers[(seat, kind)] = value
        self.run()

    def ask(self, seat: str, kind: str, options: Sequence[Any], planned: Callable[[Standing], Any],
            secret: bool = True, **about: Any) -> None:
        """Ask unless the seat's standing orders give the answer, or the choice has one answer
        and that follows from public facts.  A `secret` choice (its options rest on counters
        face down, 14.1) is asked even with one answer: answering at once would tell the other
        seats, by the timing, what the seat holds."""
        options = tuple(options)
        self.asks[(seat, kind)] = Ask(seat, kind, options, about)
        orders = self.standing.get(seat)
        chosen = planned(orders) if orders is not None else None
        if len(options) == 1 and (not secret or chosen is not None):
            self.answers[(seat, kind)] = options[0]
        elif chosen in options:  # a standing order that fits no option leaves the question asked
            self.answers[(seat, kind)] = chosen

    def take(self, seat: str, kind: str) -> Any:
        del self.asks[(seat, kind)]
        return self.answers.pop((seat, kind))

    def run(self) -> None:
        while not self.pending() and self.step != OVER:
            self.step = getattr(self, f"_{self.step}")()


@dataclass(slots=True)
class Group:
    """One part of a side: an army, the Reserve's engaged counters, a neutral army, one card's
    Reinforcements or one cousin's counter."""
    key: str
    owner: str | None  # the seat; None for a neutral army
    role: str
    warriors: int = 0
    jaguars: int = 0
    may_retreat: bool = False  # the caller's word that this army has somewhere to go (14.11)
    lost: Force = Force()

    @property
    def force(self) -> Force:
        return Force(self.warriors, self.jaguars)

    def remove(self, kind: str) -> None:
        if kind == WARRIOR:
            self.warriors -= 1
        else:
            self.jaguars -= 1
        self.lost = Force(self.lost.warriors + (kind == WARRIOR), self.lost.jaguars + (kind == JAGUAR))


@dataclass(slots=True)
class Side:
    name: str
    seat: str | None  # None: a neutral territory
    groups: list[Group]
    captured: int = 0  # enemy counters this side's lances took in the rounds
    gone: list[Group] = field(default_factory=list)  # groups that retreated

    @property
    def count(self) -> int:
        return sum(g.force.count for g in self.groups)

    @property
    def points(self) -> int:
        return sum(g.force.points for g in self.groups)

    def group(self, key: str) -> Group:
        return next(g for g in self.groups if g.key == key)

    def retreatable(self, heroic: bool) -> list[str]:
        """14.6: the Reserve may always retreat after the first round; 14.11: an army only with
        somewhere to go; neutrals, cousins and Reinforcements never on their own (14.12, 14.14)."""
        if heroic:
            return []
        return [g.key for g in self.groups if g.force.count and (g.role == RESERVE or (g.role == ARMY and g.may_retreat))]


def ordered_losses(groups: Sequence[Group], count: int, kinds: Sequence[str]) -> tuple[str, ...]:
    """`count` losses taken by kind in this order, the groups in their order within a kind."""
    taken: list[str] = []
    for kind in kinds:
        for group in groups:
            have = group.warriors if kind == WARRIOR else group.jaguars
            taken += [f"{group.key}:{kind}"] * min(have, count - len(taken))
    return tuple(sorted(taken))


def loss_options(groups: Sequence[Group], count: int) -> list[tuple[str, ...]]:
    """Every distinct way to lose `count` counters from these groups (counters of one kind in
    one group are alike, so they are not told apart)."""
    per_group = [[(w, j) for w in range(g.warriors + 1) for j in range(g.jaguars + 1)] for g in groups]
    options = []
    for pick in product(*per_group):
        if sum(w + j for w, j in pick) == count:
            options.append(tuple(sorted(f"{g.key}:{kind}" for g, (w, j) in zip(groups, pick)
                                        for kind, n in ((WARRIOR, w), (JAGUAR, j)) for _ in range(n))))
    return sorted(options)


@dataclass(frozen=True)
class Outcome:
    """What the game must change after a land battle."""
    winner: str | None  # ATTACKER, DEFENDER, or None (both destroyed, or both retreated)
    holder: str  # who holds the territory: ATTACKER takes it, else DEFENDER keeps it (14.7)
    rounds: int
    sacrifice: dict[str, int]  # Sacrifice points won, by seat (14.7, 14.8)
    survivors: dict[str, dict[str, Force]]  # seat -> army key or RESERVE -> counters back on the chart
    lost: dict[str, dict[str, Force]]  # seat -> army key or RESERVE -> counters captured
    destroyed: tuple[tuple[str, str], ...]  # (seat, army): its general is killed (14.1)
    retreated: tuple[tuple[str, str], ...]  # (seat, army key or RESERVE)
    staying: dict[str, Force]  # "Reinforcements" troops that won and stay until the end of the turn (14.13)
    promoted: tuple[tuple[str, str], ...]  # (seat, group) whose warrior became a Jaguar knight (14.10, 14.14)


class Battle(Machine):
    """One land battle of the Flower War (14.7).  `defender` None is a neutral territory
    (`outer`: one of the four outer valleys).  `reserve` is the defending player's Reserve when
    it can reach the battle (14.6: the caller checks the chain); `cousins` maps each seat that
    may declare itself cousin (14.14: adjacent, connected to its capital) to its Reserve, in turn
    order; `reinforcements` lists the "Reinforcements" cards played as (seat, side, troops), in
    the order played."""

    def __init__(self, dice: Dice, *, attacker: str, army: Force, army_key: str = "A", army_retreat: bool = True,
                 defender: str | None = None, defence: Force | None = None, defence_key: str = "A",
                 defence_retreat: bool = True, reserve: Force | None = None, outer: bool = False,
                 espionage: bool = False, terrain_die: bool = False,
                 reinforcements: Sequence[tuple[str, str, Force]] = (), cousins: Mapping[str, Force] | None = None,
                 heroic: bool = False, raid: bool = False, yellow: Sequence[str] = (),
                 standing: Mapping[str, Standing] | None = None, edition: Edition | None = None):
        super().__init__(dice, standing or {})
        edition = edition or packaged_edition()
        if not 0 < army.count <= edition.box_limit or (defence and defence.count > edition.box_limit) or \
                any(side not in (ATTACKER, DEFENDER) for _, side, _ in reinforcements):
            raise ValueError("an army has 1 to 4 counters (14.1); Reinforcements join attacker or defender")
        self.sides = {ATTACKER: Side(ATTACKER, attacker, [Group(army_key, attacker, ARMY, army.warriors, army.jaguars,
                                                                  army_retreat)]),
                      DEFENDER: Side(DEFENDER, defender, [])}
        if defence is not None and defence.count:
            self.sides[DEFENDER].groups.append(Group(defence_key, defender, ARMY, defence.warriors, defence.jaguars,
                                                     defence_retreat))
        self.reserve = reserve if defender is not None else None
        self.outer, self.espionage, self.terrain_die = outer, espionage, terrain_die
        self.reinforcements = tuple(reinforcements)
        self.cousins = dict(cousins or {}) if defender is None else {}  # 14.14: only for a neutral
        self.heroic, self.raid = heroic, raid
        self.yellow = frozenset(yellow)  # sides that roll yellow in the first round whatever their strength
        self.round = 0
        self.terrain_captures = 0
        self.promoted: list[tuple[str, str]] = []
        self.winner: str | None = None
        self.retreats: set[str] = set()
        self.fixed: dict[str, list[str]] = {}  # losses nobody chooses, by side
        self.mobilisation, self.outer_bonus = edition.mobilisation, edition.mobilisation_outer_bonus
        self.run()

    # ---- before the first round ----------------------------------------------------------

    def _start(self) -> str:
        """14.6: the Reserve's commitment, before the attacker announces his force."""
        reserve, seat = self.reserve, self.sides[DEFENDER].seat
        if reserve is not None and seat is not None:
            options = [Force(w, j) for w in range(reserve.warriors + 1) for j in range(reserve.jaguars + 1)]
            self.ask(seat, RESERVE, options, lambda s: None if s.reserve is None else _commit(reserve, s.reserve))
        return "committed"

    def _committed(self) -> str:
        defender = self.sides[DEFENDER]
        if (defender.seat, RESERVE) in self.asks:
            engaged = self.take(defender.seat, RESERVE)
            if engaged.count:
                defender.groups.append(Group(RESERVE, defender.seat, RESERVE, engaged.warriors, engaged.jaguars))
            self.log.append({"type": "reserve", "seat": defender.seat})  # how many stays secret (14.1)
        for seat, card_side, troops in self.reinforcements:  # 14.13: announced before the roll
            side = self.sides[card_side]
            side.groups.append(Group(f"reinforcements-{seat}-{len(side.groups)}", seat, REINFORCEMENT,
                                     troops.warriors, troops.jaguars))
            self.log.append({"type": "reinforcements", "seat": seat, "side": card_side, "counters": troops.count})
        for seat, their_reserve in self.cousins.items():  # 14.14
            options = [NONE] + [kind for kind, n in ((WARRIOR, their_reserve.warriors),
                                                       (JAGUAR, their_reserve.jaguars)) if n]
            self.ask(seat, COUSIN, options, lambda s, o=options: None if s.cousin is None else
                     (s.cousin if s.cousin in o else NONE))
        return "declared"

    def _declared(self) -> str:
        defender = self.sides[DEFENDER]
        for seat in self.cousins:
            kind = self.take(seat, COUSIN)
            if kind != NONE:
                defender.groups.append(Group(f"cousin-{seat}", seat, COUSIN, int(kind == WARRIOR), int(kind == JAGUAR)))
            self.log.append({"type": "cousin", "seat": seat, "kind": kind})
        if defender.seat is None:
            self._mobilise(defender)
        if not defender.count:  # a city left to its Reserve, which engaged nothing: no battle
            self.winner = ATTACKER
            self.log.append({"type": "unopposed"})
            return OVER
        if self.terrain_die:  # 14.8: rolled before the battle
            face = self.dice.roll("yellow")
            self.log.append({"type": "terrain", "face": face})
            if face == LANCE:
                self.terrain_captures = 1
                self._ask_losses(self.sides[ATTACKER], 1)
                return "terrain_taken"
        return "fight"

    def _mobilise(self, neutral: Side) -> None:
        """14.12, 14.13: the neutral's minimum army plus the white die (+1 outside the valley),
        cancelled by a pochteca in Espionage."""
        warriors, jaguars = NEUTRAL_ARMY["outer" if self.outer else "valley"]
        if not self.espionage:
            face = int(self.dice.roll("white"))
            roll = self.mobilisation[min(6, face + (self.outer_bonus if self.outer else 0))]
            warriors, jaguars = warriors + (roll == WARRIOR), jaguars + (roll == JAGUAR)
            self.log.append({"type": "mobilisation", "face": face, "troop": roll})
        neutral.groups.insert(0, Group(NEUTRAL, None, NEUTRAL, warriors, jaguars))

    def _terrain_taken(self) -> str:
        self._take_losses(self.sides[ATTACKER])
        if not self.sides[ATTACKER].count:
            return self._end(DEFENDER)
        return "fight"

    # ---- the rounds ------------------------------------------------------------------------

    def _fight(self) -> str:
        """14.7: each side rolls 2 dice, yellow for the strong side and red for the weak, both red
        on a tie; each lance captures an enemy counter.  A side given `yellow` (the Uitzilpochtli
        card) rolls yellow in the first round whatever its strength."""
        self.round += 1
        attacker, defender = self.sides[ATTACKER], self.sides[DEFENDER]
        rolled = {}
        for side, other in ((attacker, defender), (defender, attacker)):
            boosted = self.round == 1 and side.name in self.yellow
            colour = "yellow" if boosted else colours(side.points, other.points)
            rolled[side.name] = (side.points, colour, [self.dice.roll(colour) for _ in range(2)])
        self.log.append({"type": "round", "round": self.round,
                         **{name: {"points": p, "colour": c, "faces": f} for name, (p, c, f) in rolled.items()}})
        for side, other in ((attacker, defender), (defender, attacker)):
            lances = rolled[other.name][2].count(LANCE)
            other.captured += min(lances, side.count)
            self._ask_losses(side, lances)
        return "losses_taken"

    def _ask_losses(self, side: Side, lances: int) -> None:
        """14.9: the side taking losses chooses which of its own counters; a neutral army loses
        warriors first; Reinforcements and then cousins are captured last (14.13, 14.14)."""
        own = [g for g in side.groups if RANK[g.role] == 0]
        choose = min(lances, sum(g.force.count for g in own))
        fixed: list[str] = []
        for group in sorted((g for g in side.groups if RANK[g.role] > 0), key=lambda g: RANK[g.role]):
            fixed += ordered_losses([group], lances - choose - len(fixed), WARRIORS_FIRST)
        if side.seat is None:
            fixed += ordered_losses(own, choose, WARRIORS_FIRST)
        elif choose:
            self.ask(side.seat, LOSSES, loss_options(own, choose),
                     lambda s: None if s.losses is None else ordered_losses(own, choose, s.losses), counters=choose)
        self.fixed[side.name] = fixed

    def _take_losses(self, side: Side) -> None:
        chosen = self.take(side.seat, LOSSES) if (side.seat, LOSSES) in self.asks else ()
        taken = sorted(chosen + tuple(self.fixed.pop(side.name)))
        for item in taken:
            key, kind = item.rsplit(":", 1)
            side.group(key).remove(kind)
        self.log.append({"type": "losses", "side": side.name, "lost": taken})

    def _losses_taken(self) -> str:
        """14.9: losses are removed simultaneously; a side whose counters are all captured is
        destroyed; both at once and the defender keeps his territory (14.7)."""
        for side in self.sides.values():
            self._take_losses(side)
        attacker, defender = self.sides[ATTACKER].count, self.sides[DEFENDER].count
        if not attacker or not defender:
            return self._end(DEFENDER if attacker == 0 and defender else ATTACKER if defender == 0 and attacker else None)
        for side in self.sides.values():  # 14.7: after each round each side continues or retreats
            keys = side.retreatable(self.heroic)
            reserve = side.name == DEFENDER and self.reserve is not None  # whether it has counters left is secret
            if side.seat is not None and not self.heroic and (reserve or any(side.group(k).role == ARMY for k in keys)):
                subsets = [tuple(k for k, bit in zip(keys, bits) if bit) for bits in product((0, 1), repeat=len(keys))]
                self.ask(side.seat, RETREAT, sorted(subsets, key=lambda t: (len(t), t)),
                         lambda s, k=tuple(keys), p=side.points: None if s.retreat_below is None else
                         (k if p < s.retreat_below else ()), points=side.points)
        return "withdrawn"

    def _withdrawn(self) -> str:
        for side in self.sides.values():
            if (side.seat, RETREAT) not in self.asks:
                continue
            keys = self.take(side.seat, RETREAT)
            for key in keys:
                side.gone.append(side.group(key))
                side.groups.remove(side.group(key))
            if keys:
                self.log.append({"type": "retreat", "side": side.name, "groups": list(keys)})
            if keys and not any(g.force.count for g in side.groups if RANK[g.role] == 0):
                self.retreats.add(side.name)  # what is left (Reinforcements) leaves with it
        if self.retreats:
            return self._end(None if len(self.retreats) == 2 else
                             ATTACKER if DEFENDER in self.retreats else DEFENDER)
        return "fight"

    # ---- the end ---------------------------------------------------------------------------

    def _end(self, winner: str | None) -> str:
        """14.10: a victory over another army (not a Raid) lets one surviving warrior become a
        Jaguar knight; 14.14: so may a surviving cousin warrior when the neutral wins."""
        self.winner = winner
        self.log.append({"type": "battle-end", "winner": winner, "rounds": self.round})
        if winner is None or self.raid or not self.round:
            return OVER
        side = self.sides[winner]
        if side.seat is not None:  # asked even with no warrior left: which counters survived is secret
            keys = [g.key for g in side.groups + side.gone if g.role in (ARMY, RESERVE) and g.warriors]
            self.ask(side.seat, EXPERIENCE, [NONE, *keys],
                     lambda s: None if s.promote is None else (keys[0] if s.promote and keys else NONE))
        for group in side.groups:  # a cousin's counter is known from the combat points and the losses
            if group.role == COUSIN and group.warriors:
                self.ask(group.owner, EXPERIENCE, [NONE, group.key],
                         lambda s, k=group.key: None if s.promote is None else (k if s.promote else NONE),
                         secret=False)
        return "promote"

    def _promote(self) -> str:
        for (seat, kind) in list(self.asks):
            key = self.take(seat, kind)
            if key != NONE:
                side = self.sides[self.winner]
                group = next(g for g in side.groups + side.gone if g.key == key)
                group.warriors, group.jaguars = group.warriors - 1, group.jaguars + 1
                self.promoted.append((seat, RESERVE if group.role == COUSIN else key))
                self.log.append({"type": "promotion", "seat": seat, "group": key})
        return OVER

    def outcome(self) -> Outcome:
        if self.step != OVER:
            raise IllegalOrderError("the battle is not over")
        winner = self.winner
        sacrifice: dict[str, int] = {}
        if winner is not None and self.sides[winner].seat is not None:  # 14.7: only the victor's captures count
            sacrifice[self.sides[winner].seat] = self.sides[winner].captured
        if self.terrain_captures and self.sides[DEFENDER].seat is not None:  # 14.8: even if he loses
            seat = self.sides[DEFENDER].seat
            sacrifice[seat] = sacrifice.get(seat, 0) + self.terrain_captures
        survivors: dict[str, dict[str, Force]] = {}
        lost: dict[str, dict[str, Force]] = {}
        staying: dict[str, Force] = {}
        destroyed, retreated = [], []
        for side in self.sides.values():
            for group in side.groups + side.gone:
                if group.role == REINFORCEMENT:
                    if side.name == winner and group.force.count and group not in side.gone:
                        before = staying.get(group.owner, Force())  # a seat's troops of several cards together
                        staying[group.owner] = Force(before.warriors + group.warriors, before.jaguars + group.jaguars)
                    continue
                if group.role == NEUTRAL:
                    continue
                key = RESERVE if group.role == COUSIN else group.key
                survivors.setdefault(group.owner, {})[key] = group.force
                lost.setdefault(group.owner, {})[key] = group.lost
                if group in side.gone:
                    retreated.append((group.owner, key))
                elif group.role == ARMY and not group.force.count:
                    destroyed.append((group.owner, key))
        return Outcome(winner, ATTACKER if winner == ATTACKER else DEFENDER, self.round, sacrifice, survivors,
                       lost, tuple(destroyed), tuple(retreated), staying, tuple(self.promoted))


def _commit(reserve: Force, most: int) -> Force:
    """A standing Reserve commitment: up to `most` counters, Jaguar knights first."""
    jaguars = min(reserve.jaguars, most)
    return Force(min(reserve.warriors, most - jaguars), jaguars)
