"""Phase 6, lake domination (13.0-13.2): the boats written on the phase-5 sheet placed at once,
attacks in turn order with third parties joining a side or staying neutral, lake battles
(engine/azteca/lake.py), and lake control at the end.

A part of AztecaState (engine/azteca/state.py), which holds the boats (`People.boats`, zone key
-> count), `lake_control` (read by the tribute of phase 2) and the asking and event machinery."""
from __future__ import annotations

from typing import Any

from engine.azteca.battle import CONTINUE, EditionDice
from engine.azteca.lake import LakeBattle
from engine.azteca.orders import Attack, Fight, Join, Order
from engine.azteca.turn import LAKE, PUBLIC


class LakeDomination:
    people: Any
    seats: tuple[str, ...]
    lake_control: dict[str, int | None]

    def zone_key(self, number: int) -> str:
        return self.geo.by_number(number, lake=True).key

    def boats_in(self, zone: str) -> dict[int, int]:
        return {s: person.boats[zone] for s, person in enumerate(self.people) if person.boats.get(zone)}

    def lake_targets(self, s: int) -> list[tuple[int, str]]:
        """13.0: "he wants to attack another player located in a lake zone containing enemy
        boats ... then attack those of a third player that did not participate to any combat"."""
        targets = []
        for lake in self.geo.lakes():
            here = self.boats_in(lake.key)
            if s in here:
                targets += [(lake.number, self.seats[o]) for o in sorted(here) if o != s
                            and (not self.lake_attacks or o not in self.lake_fought)]
        return targets

    def _start_lake(self) -> None:
        """13.0: "Players reveal simultaneously their locations and place their boats"."""
        self.phase = LAKE
        for person in self.people:
            plan, person.boat_plan = person.boat_plan, {}
            person.boats = {self.zone_key(zone): count for zone, count in sorted(plan.items()) if count}
        self._event(PUBLIC, "boats-placed", boats={self.seats[s]: dict(person.boats)
                                                   for s, person in enumerate(self.people) if person.boats})
        self._play_cards()  # a storm falls on the boats as placed
        self.lake_fought = set()
        self.attack_queue = self.turn_order()
        self.lake_attacks = 0
        self.lake_battles = 0
        self._ask_attack()

    def _ask_attack(self) -> None:
        """"Each player, in turn order, announces and resolves his attacks"; one with no enemy
        boats beside his own (a public fact) is not asked."""
        while self.attack_queue:
            if self.lake_targets(self.attack_queue[0]):
                self.owed = {self.attack_queue[0]: "attack"}
                return
            self.attack_queue.pop(0)
            self.lake_attacks = 0
        self._lake_control()

    def _attack(self, s: int, order: Attack) -> None:
        self.owed.pop(s)
        if order.zone is None:
            self.attack_queue.pop(0)
            self.lake_attacks = 0
            self._ask_attack()
            return
        zone, defender = self.zone_key(order.zone), self.seats.index(order.seat)
        self.lake_attacks += 1
        self.lake_battle_sides = {s: "attacker", defender: "defender"}
        self.lake_zone = zone
        self._event(PUBLIC, "lake-attack", seat=self.seats[s], zone=zone, defender=order.seat)
        third = [o for o in sorted(self.boats_in(zone)) if o not in (s, defender)]
        if third:  # "they can either join the attacker, join the defender, or choose neutrality"
            self._ask_all("join", third)
        else:
            self._lake_battle()

    def _joins(self, answers: dict[int, Order]) -> None:
        """"A player who joins an alliance must announce it before the beginning of the battle":
        the third parties' answers are revealed together."""
        for s, join in sorted(answers.items()):
            assert isinstance(join, Join)
            self.lake_battle_sides[s] = join.side
        self._event(PUBLIC, "lake-sides", sides={self.seats[s]: side for s, side in sorted(self.lake_battle_sides.items())})
        self._lake_battle()

    def _lake_battle(self) -> None:
        """13.1 with the allies in turn order after the attacker and the defender, who take
        the first loss of their side."""
        sides = self.lake_battle_sides
        order = [o for o in self.turn_order() if sides.get(o) in ("attacker", "defender")]
        attacker, defender = (next(o for o in sides if sides[o] == role) for role in ("attacker", "defender"))
        here = self.boats_in(self.lake_zone)
        self.lake_battles += 1
        self.lake_fight = LakeBattle(
            EditionDice(self.edition.dice, self._rng(f"lake:{self.round}:{self.lake_battles}")),
            attackers=[self.seats[o] for o in [attacker] + [o for o in order if sides[o] == "attacker" and o != attacker]],
            defenders=[self.seats[o] for o in [defender] + [o for o in order if sides[o] == "defender" and o != defender]],
            boats={self.seats[o]: here[o] for o in order})
        self._lake_battle_goes_on()

    def _lake_battle_goes_on(self) -> None:
        """Each round's sunk boats leave the board at once; the attacker is asked after each."""
        battle = self.lake_fight
        for entry in battle.log:
            self._event(PUBLIC, entry["type"], zone=self.lake_zone,
                        **{("battle_round" if k == "round" else k): v for k, v in entry.items() if k != "type"})
        battle.log.clear()
        for seat, boats in battle.boats.items():
            person = self.people[self.seats.index(seat)]
            person.boats[self.lake_zone] = boats
            person.boats = {zone: count for zone, count in person.boats.items() if count}
        if not battle.is_over():
            self.owed = {self.seats.index(battle.pending()[0].seat): "fight"}
            return
        outcome = battle.outcome()
        self.lake_fought |= {self.seats.index(seat) for seat in outcome.boats}
        self._event(PUBLIC, "lake-battle-over", zone=self.lake_zone, lost=outcome.lost, boats=outcome.boats)
        self.lake_fight = None
        self._ask_attack()

    def _fight(self, s: int, order: Fight) -> None:
        """13.1: "the attacker can in each round decide to stop the battle"."""
        self.owed.pop(s)
        self.lake_fight.answer(self.seats[s], CONTINUE, order.on)
        self._lake_battle_goes_on()

    def _lake_control(self) -> None:
        """13.2: "A player controls a lake zone if he has more boats in this zone than each of his
        opponents. If there is a tie, the zone is not controlled"."""
        for lake in self.geo.lakes():
            here = self.boats_in(lake.key)
            top = max(here.values(), default=0)
            leaders = [s for s, count in here.items() if count == top]
            self.lake_control[lake.key] = leaders[0] if top and len(leaders) == 1 else None
        self._event(PUBLIC, "lake-control", control={zone: None if s is None else self.seats[s]
                                                     for zone, s in self.lake_control.items()})
        self._phase_done(LAKE)


__all__ = ["LakeDomination"]
