"""Phase 5, pochteca missions (12.0): the secret sheet, the reveal, expeditions, then each
player's missions in turn order, chosen when they resolve.

A part of AztecaState (engine/azteca/state.py), which holds the board (`owner`, `assimilated`)
and the asking and event machinery.  The sheet also carries the boats' lake zones (13.0: "it is
recommended to write the position of the boats while determining pochteca missions"); they stay
secret in `People.boat_plan` until phase 6 reveals them (engine/azteca/domination.py)."""
from __future__ import annotations

from typing import Any

from engine.azteca.components import LANCE
from engine.azteca.orders import EXPEDITION, Missions, Order, Send
from engine.azteca.turn import POCHTECAS as PHASE, PUBLIC

# 12.0 and 18.0 "I'VE ALREADY GIVEN...": (Tributes paid, the die rolled for a lance, or None:
# the mission succeeds at once).
MISSION_TERMS = {
    "automatic": {"alliance": (3, None), "rebellion": (1, "red"), "assimilation": (3, None),
                  "espionage": (0, None), "none": (0, None)},
    "already-given": {"alliance 2": (2, "red"), "alliance 4": (4, "yellow"), "rebellion": (1, "red"),
                      "assimilation": (1, "red"), "espionage": (0, None), "none": (0, None)},
}


class PochtecaMissions:
    people: Any
    seats: tuple[str, ...]
    owner: dict[str, int]
    assimilated: set[str]

    # ---- facts the checks and views read ---------------------------------------------------

    def mission_terms(self) -> dict[str, tuple[int, str | None]]:
        return MISSION_TERMS[self.setup.options["alliances"]]

    def armies_at(self, territory: str) -> set[int]:
        """Seats with an army there: a general on the board always leads troops (14.5)."""
        return {s for s, person in enumerate(self.people) if territory in person.generals.values()}

    def destinations(self, s: int) -> list[str]:
        """12.0: "A pochteca cannot be sent in a territory where there is an enemy army, or in the
        capital of another player"; any other land region in play."""
        capitals = {self.capital(o) for o in range(self.n) if o != s}
        return sorted(region.key for region in self.geo.land()
                      if region.key not in capitals and not self.armies_at(region.key) - {s})

    def missions_possible(self, s: int, territory: str) -> list[str]:
        """The missions a pochteca of seat s in `territory` may carry out now, with the Tributes
        it holds now (12.0's conditions; the option's prices)."""
        terms, person = self.mission_terms(), self.people[s]
        valley = {region.key for region in self.geo.valley()}
        owner = self.owner.get(territory)
        possible = []
        for mission, (price, _) in terms.items():
            if price > person.tributes and not self.boon(s, "free-mission"):
                continue
            if mission.startswith("alliance"):
                allowed = (territory in valley and owner is None and (s, territory) not in self.alliances_tried
                           and len(self.cities(s)) < self.edition.counters["cities"])
            elif mission == "rebellion":
                allowed = (territory in valley and owner not in (None, s) and territory != self.capital(owner)
                           and territory not in self.assimilated and not self.armies_at(territory) - {s})
            elif mission == "assimilation":
                allowed = (territory in valley and owner == s and territory != self.capital(s)
                           and territory not in self.assimilated and self.assimilation_room(s) > 0)
            elif mission == "espionage":  # "prevents a neutral territory from benefiting from his
                allowed = owner is None   # mobilization roll ... also possible in the exterior valleys"
            else:
                allowed = True
            if allowed:
                possible.append(mission)
        return possible

    def waived_missions(self, s: int, chosen: dict[str, str]) -> list[str]:
        """Yacatecuhtli ("one mission of yours costs no Tributes"): the dearest missions chosen, as
        many as the cards played this turn allow (letters first in a tie)."""
        prices = self.mission_terms()
        dearest = sorted((letter for letter, mission in chosen.items() if prices[mission][0]),
                         key=lambda letter: (-prices[chosen[letter]][0], letter))
        return dearest[:self.boon(s, "free-mission")]

    def assimilation_room(self, s: int) -> int:
        """12.0: "You cannot have more than 5 assimilated Cities"."""
        return self.edition.counters["assimilated_cities"] - len(self.assimilated & set(self.cities(s)))

    def pochteca_stock(self, s: int) -> int:
        """Pochtecas in the capital or still on the board (spies until phase 7)."""
        return self.people[s].pochtecas + len(self.spies.get(s, {}))

    # ---- the sheet ------------------------------------------------------------------------------

    def _start_pochtecas(self) -> None:
        """12.0: "Each player first determines the territories where his pochtecas will be sent";
        13.0: every boat's zone on the same sheet."""
        self.phase = PHASE
        self.alliances_tried = set()
        self._play_cards()
        asked = [s for s, person in enumerate(self.people) if person.pochtecas or sum(person.boats.values())]
        if asked:
            self._ask_all("send", asked)
        else:
            self._phase_done(PHASE)

    def _sheets(self, answers: dict[int, Order]) -> None:
        """"All players reveal their instructions simultaneously": the pochtecas' destinations
        now, the boats' zones in phase 6."""
        self.envoys = {}
        for s, sheet in sorted(answers.items()):
            assert isinstance(sheet, Send)
            self.envoys[s] = dict(sheet.pochtecas)
            self.people[s].pochtecas -= len(sheet.pochtecas)
            self.people[s].boat_plan = {zone: count for zone, count in sheet.boats}
        self._event(PUBLIC, "pochtecas-revealed", envoys={self.seats[s]: dict(sent) for s, sent in self.envoys.items()})
        self._expeditions()
        self.mission_queue = [s for s in self.turn_order() if self.envoys.get(s)]
        self._ask_missions()

    def _expeditions(self) -> None:
        """"The Expedition missions are resolved first ... The first player shuffles the cards and
        draws one card for each pochteca that he sent in Expedition, and so on for the other
        players. If the deck is exhausted ... the cards are reshuffled"; gains at once."""
        deck: list[tuple[str, int]] = []
        shuffles = 0
        for s in self.turn_order():
            for letter in [letter for letter, where in sorted(self.envoys.get(s, {}).items()) if where == EXPEDITION]:
                if not deck:
                    deck = [(card.key, card.tributes) for card in self.edition.expeditions for _ in range(card.count)]
                    self._rng(f"expeditions:{self.round}:{shuffles}").shuffle(deck)
                    shuffles += 1
                card, tributes = deck.pop()
                self.people[s].tributes += tributes
                del self.envoys[s][letter]
                self._event(PUBLIC, "expedition", seat=self.seats[s], pochteca=letter, card=card, tributes=tributes)

    # ---- missions, in turn order ----------------------------------------------------------------

    def mission_choices(self, s: int) -> dict[str, dict[str, Any]]:
        return {letter: {"territory": where, "missions": self.missions_possible(s, where)}
                for letter, where in sorted(self.envoys.get(s, {}).items())}

    def _ask_missions(self) -> None:
        """"Pochteca missions from the first player are first resolved, then those from the second
        player": each seat chooses when its turn comes, seeing what earlier missions did.  A seat
        whose pochtecas can do nothing (a public fact) is not asked."""
        while self.mission_queue:
            s = self.mission_queue.pop(0)
            if any(len(choice["missions"]) > 1 for choice in self.mission_choices(s).values()):
                self.owed = {s: "mission"}
                return
            self._missions(s, Missions(), asked=False)
        self.envoys = {}
        self._phase_done(PHASE)

    def _missions(self, s: int, order: Missions, asked: bool = True) -> None:
        """"A pochteca can accomplish only one mission, one time only"; it is removed once done,
        a spy only after the Flower War."""
        if asked:
            self.owed.pop(s)
        chosen = dict(order.missions)
        waived = self.waived_missions(s, chosen)
        if waived:
            self.people[s].boons["free-mission"] -= len(waived)
        for letter, where in sorted(self.envoys.get(s, {}).items()):
            self._mission(s, letter, where, chosen.get(letter, "none"), free=letter in waived)
        self.envoys[s] = {}
        if asked:
            self._ask_missions()

    def _mission(self, s: int, letter: str, where: str, mission: str, free: bool = False) -> None:
        price, die = self.mission_terms()[mission]
        price = 0 if free else price
        person = self.people[s]
        person.tributes -= price
        face = self._rng(f"mission:{self.round}:{self.seats[s]}:{letter}").choice(self.edition.dice[die]) if die else None
        success = die is None or face == LANCE
        if mission.startswith("alliance"):  # "places a City of his color"
            self.alliances_tried.add((s, where))
            if success:
                self.owner[where] = s
        elif mission == "rebellion" and success:  # "A territory in Rebellion becomes neutral"
            del self.owner[where]
        elif mission == "assimilation" and success:
            self.assimilated.add(where)
        elif mission == "espionage":
            self.spies.setdefault(s, {})[letter] = where
        self._event(PUBLIC, "mission", seat=self.seats[s], pochteca=letter, territory=where,
                    mission=mission.split()[0], tributes=price, die=die, face=face, success=success)

    def _recall_spies(self) -> None:
        """Espionage "is only resolved during phase 7": the spies leave the board when it ends."""
        if self.spies:
            self._event(PUBLIC, "spies-recalled")
        self.spies = {}


__all__ = ["MISSION_TERMS", "PochtecaMissions"]
