"""Azteca's lake battle (13.1) as a small state machine the Lake Domination phase drives.

Rounds of one die a side (yellow for the side with more boats, red for the other, red for both
on a tie); each lance sinks a boat of the other side.  Only the attacker decides anything: after
each round he continues or stops (`CONTINUE`: True or False; a standing `retreat_below` answers
for him).  There are no retreats and no Sacrifice points.  Allies share their side's losses in
turn, the player they joined first.  Readings: docs/rules-azteca.md, "Battles".
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from engine.azteca.battle import ATTACKER, CONTINUE, DEFENDER, OVER, Dice, Machine, Standing, colours
from engine.azteca.components import LANCE
from engine.core import IllegalOrderError


@dataclass(frozen=True)
class LakeOutcome:
    winner: str | None  # the side left alone in the zone; None if the attacker stopped or both sank
    rounds: int
    boats: dict[str, int]  # seat -> boats left in the zone
    lost: dict[str, int]  # seat -> boats sunk


class LakeBattle(Machine):
    """One lake battle in one zone.  `attackers` and `defenders` list the seats on each side with
    the attacker or the defender first and allies after in the order they joined; `boats` gives
    each seat's boats in the zone.  The first round is fought when the attack is announced."""

    def __init__(self, dice: Dice, *, attackers: Sequence[str], defenders: Sequence[str], boats: Mapping[str, int],
                 standing: Mapping[str, Standing] | None = None):
        super().__init__(dice, standing or {})
        if not attackers or not defenders or set(attackers) & set(defenders) or \
                not boats.get(attackers[0]) or not boats.get(defenders[0]):
            raise ValueError("a lake battle needs an attacker and a defender with boats, on different sides")
        self.seats = {ATTACKER: tuple(attackers), DEFENDER: tuple(defenders)}
        self.boats = {seat: boats.get(seat, 0) for seat in (*attackers, *defenders)}
        self.start = dict(self.boats)
        self.next_loss = {ATTACKER: 0, DEFENDER: 0}  # whose turn it is to lose a boat on each side
        self.round = 0
        self.winner: str | None = None
        self.run()

    def side_boats(self, side: str) -> int:
        return sum(self.boats[seat] for seat in self.seats[side])

    def _start(self) -> str:
        """13.1: each boat is 1 combat point; the strong side rolls 1 yellow die, the weak 1 red,
        both red on a tie; each lance obtained means the loss of a boat, counted again each round."""
        self.round += 1
        points = {side: self.side_boats(side) for side in self.seats}
        faces = {side: self.dice.roll(colours(points[side], points[other]))
                 for side, other in ((ATTACKER, DEFENDER), (DEFENDER, ATTACKER))}
        self.log.append({"type": "lake-round", "round": self.round,
                         **{side: {"boats": points[side], "face": faces[side]} for side in self.seats}})
        for side, other in ((ATTACKER, DEFENDER), (DEFENDER, ATTACKER)):
            if faces[other] == LANCE:
                self._sink(side)
        left = {side: self.side_boats(side) for side in self.seats}
        if not left[ATTACKER] or not left[DEFENDER]:
            self.winner = ATTACKER if left[ATTACKER] else DEFENDER if left[DEFENDER] else None
            return OVER
        attacker = self.seats[ATTACKER][0]
        self.ask(attacker, CONTINUE, (True, False),
                 lambda s: None if s.retreat_below is None else left[ATTACKER] >= s.retreat_below,
                 secret=False, boats=left[ATTACKER])  # boats are on the board
        return "decided"

    def _sink(self, side: str) -> None:
        """13.1: "losses are distributed successively to one and the other, the ally never
        undergoing the first loss": the side's seats take turns, skipping those with no boat."""
        seats = self.seats[side]
        for step in range(len(seats)):
            seat = seats[(self.next_loss[side] + step) % len(seats)]
            if self.boats[seat]:
                self.boats[seat] -= 1
                self.next_loss[side] = (seats.index(seat) + 1) % len(seats)
                self.log.append({"type": "boat-sunk", "seat": seat})
                return

    def _decided(self) -> str:
        attacker = self.seats[ATTACKER][0]
        if self.take(attacker, CONTINUE):
            return "start"
        self.log.append({"type": "lake-stop", "seat": attacker})
        return OVER

    def outcome(self) -> LakeOutcome:
        if self.step != OVER:
            raise IllegalOrderError("the lake battle is not over")
        return LakeOutcome(self.winner, self.round, dict(self.boats),
                           {seat: self.start[seat] - self.boats[seat] for seat in self.boats})
