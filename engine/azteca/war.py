"""Phase 7, the Flower War (14.0-14.15): standing orders, movement markers drawn at random,
each drawn seat's reorganisation and move, interceptions, the battles of engine/azteca/battle.py,
captures, retreats and the plunder of a capital.

A part of AztecaState (engine/azteca/state.py), which holds the armies (`People.generals`:
letter -> territory, `People.chart`: the counters), the board (`owner`, `assimilated`, boats,
`lake_control`, `spies`) and the asking and event machinery.  Readings: docs/rules-azteca.md,
"The Flower War"."""
from __future__ import annotations

import math
from typing import Any

from engine.azteca.battle import (ATTACKER, DEFENDER, EXPERIENCE, JAGUARS_FIRST, RESERVE, WARRIORS_FIRST,
                                  Battle, EditionDice, Force, Standing, gets_defence_die)
from engine.azteca.turn import PHASES, PUBLIC, WAR
from engine.azteca.war_cards import battle_cards
from engine.azteca.war_orders import ARMIES, RESERVE_BOX, Answer, Move, Plan, Reorganise
from engine.core import IllegalOrderError

# The battle's questions as the decisions a seat owes (answered with war_orders.Answer).
BATTLE_KINDS = {"reserve": "reserve", "cousin": "cousin", "losses": "losses", "retreat": "retreat",
                EXPERIENCE: "promote"}
WAR_KINDS = ("plan", "march", *BATTLE_KINDS.values())
RAID = "raid"  # the Azteca card played with a move (the edition's key)
FREE_TROOPS = (3, 1)  # 14.15: "3 warriors and 1 Jaguar knight", with 1 General


class FlowerWar:
    people: Any
    seats: tuple[str, ...]
    owner: dict[str, int]

    # ---- facts about the board -----------------------------------------------------------

    def armies(self, s: int) -> dict[str, str]:
        """Seat s's armies on the board: letter -> territory (a destroyed army's general is dead)."""
        return {letter: where for letter, where in sorted(self.people[s].generals.items()) if where}

    def force(self, s: int, box: str) -> Force:
        return Force(*self.people[s].chart[box])

    def plan(self, s: int) -> Plan:
        return self.plans.get(s) or Plan()

    def consents(self, zone: str, s: int) -> bool:
        """14.3: "The player who controls a lake zone can prevent crossing; if there is no control
        crossing is free" (the controller's standing `allow`)."""
        controller = self.lake_control.get(zone)
        allowed = self.plan(controller).allow if controller is not None else None
        return (controller in (None, s) or allowed is None or self.seats[s] in allowed
                or self.lends(controller, s, zone))  # Pirogue Express: his boats lent there (deals.py)

    def may_cross(self, s: int):
        """14.3: through a lake zone only with own boats there (or boats lent by the option Pirogue
        Express, deals.py) and the controller's consent."""
        return lambda zone: (bool(self.people[s].boats.get(zone)) or self.borrows(s, zone)) and self.consents(zone, s)

    def stops(self, s: int):
        """14.3: an army "must stop as soon as they enter a neutral or enemy territory"."""
        return lambda region: self.owner.get(region) != s

    def routes(self, s: int, letter: str) -> list[tuple[str, ...]]:
        """Every legal move of army `letter`, shortest first (then by name)."""
        start = self.people[s].generals[letter]
        found = self.geo.paths(start, stop_at=self.stops(s), may_cross_lake=self.may_cross(s), dikes=self.dikes)
        return sorted(set(found), key=lambda route: (sum(not self.geo.region(r).is_lake for r in route), route))

    def chain(self, s: int):
        """14.6: a chain of "territories or lake zones belonging to the player": his land, and
        zones where he has boats that nobody else controls against him; "This chain is broken by
        natural catastrophes" (the card's region)."""
        def through(region: str) -> bool:
            if region in self.catastrophes:
                return False
            if self.geo.region(region).is_lake:
                return self.may_cross(s)(region)
            return self.owner.get(region) == s
        return through

    def reserve_reaches(self, s: int, city: str) -> bool:
        return city == self.capital(s) or city not in self.catastrophes and self.geo.connected(
            self.capital(s), city, through=self.chain(s), dikes=self.dikes)

    def retreat_to(self, s: int, where: str, avoid: str = "") -> str | None:
        """14.11: "an adjacent territory belonging to him or a continuous chain of boats that allow
        him to retreat to one of his territories" (crossing others' zones with their consent).
        pbem picks the first such territory by name (the capital first); a natural catastrophe
        breaks the chain and closes the territory it falls on."""
        mine = [self.capital(s)] + self.cities(s)
        near = self.geo.neighbours(where, self.dikes) if not self.geo.region(where).is_lake else frozenset()
        boats = lambda r: self.geo.region(r).is_lake and r not in self.catastrophes and self.may_cross(s)(r)  # noqa: E731
        for home in mine:
            if home in (where, avoid) or home in self.catastrophes:
                continue
            if home in near or self.geo.connected(where, home, through=boats, dikes=self.dikes):
                return home
        return None

    def interceptor(self, mover: int, letter: str, region: str, done: set) -> tuple[int, str] | None:
        """14.4: the first army, in seat order from the mover's left and then A, B, C, whose
        standing order intercepts, next to `region` (by land or its harbour's zone); on a lake
        zone only with its own boats there and the controller's consent."""
        lake = self.geo.region(region).is_lake
        for i in range(1, self.n):
            s = (mover + i) % self.n
            for army, where in self.armies(s).items():
                if army not in self.plan(s).intercept or (s, army) in done or where == region:
                    continue
                if lake and not (region in self.geo.lake_neighbours(where) and self.may_cross(s)(region)):
                    continue
                if not lake and region not in self.geo.neighbours(where, self.dikes):
                    continue
                return s, army
        return None

    # ---- the phase ---------------------------------------------------------------------------

    def _start_war(self) -> None:
        """14.2: standing orders first (pbem's), then one movement marker per army, mixed."""
        self.phase = WAR
        self.plans = {}
        self.moved = set()
        self.war_battles = 0
        self.catastrophes, self.garrisons, self.en_route = set(), {}, {}
        self._ask_all("plan", [s for s in range(self.n)])

    def _plans(self, answers: dict[int, Any]) -> None:
        self.plans = {s: plan for s, plan in answers.items()}
        self.war_markers = [s for s in range(self.n) for _ in self.armies(s)]
        self._rng(f"war:{self.round}").shuffle(self.war_markers)
        self._event(PUBLIC, "war-markers", markers={self.seats[s]: len(self.armies(s)) for s in range(self.n)})
        self._draw_marker()

    def _draw_marker(self) -> None:
        """14.2: "the first player randomly draws a marker that will allow the player of the
        marker's color to move an army of his choice"; a seat with no army left to move (a public
        fact) passes."""
        while self.war_markers:
            s = self.war_markers.pop()
            self._event(PUBLIC, "war-marker", seat=self.seats[s], left=len(self.war_markers))
            if any((s, letter) not in self.moved for letter in self.armies(s)):
                self.owed = {s: "march"}
                return
        self._end_war()

    def _end_war(self) -> None:
        self.war, self.plans, self.moved = None, {}, set()
        self.catastrophes, self.garrisons, self.en_route = set(), {}, {}  # "until the end of the turn"
        self._drop_plays(PHASES.index(WAR) + 1)
        self._recall_spies()
        self._phase_done(WAR)

    def _reorganise(self, s: int, order: Reorganise) -> None:
        """14.5: counters pass between boxes standing together now, or, when the move that
        follows crosses where the others stand, there (kept, secret, until the move)."""
        if self._together_now(s, [box for box, _, _ in order.boxes]):
            self._exchange(s, order)
        else:
            self.en_route.setdefault(s, []).append(order)

    def _exchange(self, s: int, order: Reorganise) -> None:
        """14.5: the boxes get their new contents; an army emptied is destroyed."""
        person = self.people[s]
        for box, warriors, jaguars in order.boxes:
            person.chart[box] = [warriors, jaguars]
            if box != RESERVE_BOX and not warriors + jaguars:
                person.generals[box] = None
                self._event(PUBLIC, "army-disbanded", seat=self.seats[s], army=box)
        self._event(PUBLIC, "reorganised", seat=self.seats[s], boxes=[box for box, _, _ in order.boxes])
        self._event(s, "my-chart", chart=self._chart_json(s))

    def _march(self, s: int, order: Move) -> None:
        self.owed.pop(s)
        pending = self.en_route.pop(s, [])
        if order.army is None:
            for kept in pending:  # no move crosses where the others stand
                self._event(s, "my-reorganise-dropped", order=self.order_text(kept))
            self._event(PUBLIC, "army-passed", seat=self.seats[s])
            self._draw_marker()
            return
        route = self.route_of(s, order)
        exchanges = [(self.meeting_place(s, order.army, kept), kept) for kept in pending]
        self.moved.add((s, order.army))
        if order.raid:  # the card is shown and discarded as it is played
            self.people[s].hand.remove(RAID)
            self.discards.append(RAID)
        self._event(PUBLIC, "army-moves", seat=self.seats[s], army=order.army, route=list(route), raid=order.raid)
        self.war = {"mover": s, "army": order.army, "route": list(route), "at": 0, "met": [],
                    "defenders": [], "battle": None, "stage": "", "raid": order.raid,
                    "exchanges": exchanges}
        self._walk()

    def route_of(self, s: int, order: Move) -> tuple[str, ...]:
        """The route a move names: the destination alone (the shortest route there) or every
        region entered, lake zones included."""
        start = self.people[s].generals[order.army]
        for route in self.routes(s, order.army):  # type: ignore[arg-type]
            if route[1:] == order.route or (len(order.route) == 1 and route[-1] == order.route[0]):
                return route
        raise IllegalOrderError(f"army {order.army} cannot move from {start} by {' '.join(order.route)} (14.3)")

    def _walk(self) -> None:
        """Along the route: an interception where the army enters, then the arrival."""
        war = self.war
        s, letter, route = war["mover"], war["army"], war["route"]
        while war["at"] < len(route) - 1:
            war["at"] += 1
            region = route[war["at"]]
            if not self.geo.region(region).is_lake:
                self.people[s].generals[letter] = region
            self._exchange_en_route(s, region)
            if not self._alive(s, letter):  # emptied into the boxes it met: destroyed (14.5)
                self._moved_on()
                return
            met = None if war["raid"] else self.interceptor(s, letter, region, set(map(tuple, war["met"])))
            if met is not None:
                war["met"].append(met)
                self._intercept(met, region)
                return
        self._arrive()

    def _intercept(self, met: tuple[int, str], region: str) -> None:
        o, army = met
        s, letter = self.war["mover"], self.war["army"]
        self._event(PUBLIC, "interception", seat=self.seats[o], army=army, at=region,
                    target=self.seats[s], target_army=letter)
        self.war["stage"] = "intercept"
        self.war["interceptor"] = [o, army, self.people[o].generals[army]]
        self._battle(attacker=o, army_key=army, army_retreat=True, defender=s, defence_key=letter,
                     defence_retreat=self.retreat_to(s, region) is not None, at=region)

    def _arrive(self) -> None:
        """The end of the move: own land (nothing), or a battle with a neutral territory, the
        armies standing there, a city's Reserve (14.6, 14.7) or a capital (14.15)."""
        war = self.war
        s, where = war["mover"], war["route"][-1]
        holder = self.owner.get(where)
        if holder == s:
            self._moved_on()
            return
        war["stage"] = "arrival"
        war["defenders"] = [] if holder is None else list(self.armies(holder).keys())
        war["defenders"] = [a for a in war["defenders"] if self.people[holder].generals[a] == where]
        war["reserve"] = holder is not None and self.reserve_reaches(holder, where)
        self._next_defender()

    def _next_defender(self) -> None:
        war = self.war
        s, where = war["mover"], war["route"][-1]
        holder = self.owner.get(where)
        defence = war["defenders"].pop(0) if war["defenders"] else None
        retreat = holder is not None and defence is not None and self.retreat_to(holder, where) is not None
        route = war["route"]
        over_dike = len(route) > 1 and "tenochtitlan" in (route[-2], route[-1]) and \
            route[-1] not in self.geo.neighbours(route[-2])
        terrain = gets_defence_die(self.geo.region(where).terrain, over_dike=over_dike, attacker=self.seats[s],
                                   neutral=holder is None)
        reserve = self.force(holder, RESERVE_BOX) if war.pop("reserve", False) else None
        self._battle(attacker=s, army_key=war["army"], army_retreat=self.retreat_to(s, where) is not None,
                     defender=holder, defence_key=defence, defence_retreat=retreat, at=where, reserve=reserve,
                     terrain_die=terrain)

    def _battle(self, *, attacker: int, army_key: str, army_retreat: bool, defender: int | None,
                defence_key: str | None, defence_retreat: bool, at: str, reserve: Force | None = None,
                terrain_die: bool = False) -> None:
        self.war_battles += 1
        region = self.geo.region(at)
        neutral = defender is None
        arrival = self.war["stage"] == "arrival"  # troops that stayed defend the territory, not a sortie
        staying = [(seat, DEFENDER, troops) for seat, troops in (self.garrisons.pop(at, {}) if arrival else {}).items()]
        self.war["cards"] = battle_cards({attacker: ATTACKER, **({} if neutral else {defender: DEFENDER})},
                                         neutral, staying)
        self._play_battle_cards(at)
        cards = self.war.pop("cards")
        cousins = {self.seats[c]: self.force(c, RESERVE_BOX) for c in self.cousins(attacker, at)} if neutral else {}
        seats = [attacker] + ([] if neutral else [defender]) + [self.seats.index(c) for c in cousins]
        self.war["battle"] = Battle(
            EditionDice(self.edition.dice, self._rng(f"war:{self.round}:{self.war_battles}")),
            attacker=self.seats[attacker], army=self.force(attacker, army_key), army_key=army_key,
            army_retreat=army_retreat, defender=None if neutral else self.seats[defender],
            defence=self.force(defender, defence_key) if defence_key else None, defence_key=defence_key or "A",
            defence_retreat=defence_retreat, reserve=reserve, outer=region.kind == "outer",
            espionage=at in self.spies.get(attacker, {}).values(), terrain_die=terrain_die,
            cousins=cousins, raid=self.war["raid"], standing={self.seats[o]: self.standing(o) for o in seats},
            reinforcements=cards["reinforcements"], heroic=cards["heroic"], yellow=cards["yellow"],
            edition=self.edition)
        self.war["at_battle"] = at
        self._event(PUBLIC, "battle", at=at, attacker=self.seats[attacker], army=army_key,
                    defender=None if neutral else self.seats[defender], defending_army=defence_key,
                    cousins=list(cousins))
        self._battle_goes_on()

    def standing(self, s: int) -> Standing:
        plan = self.plan(s)
        losses = None if plan.losses is None else WARRIORS_FIRST if plan.losses == "warriors" else JAGUARS_FIRST
        return Standing(losses=losses, retreat_below=plan.retreat_below, reserve=plan.reserve, cousin=plan.cousin,
                        promote=plan.promote)

    def cousins(self, attacker: int, at: str) -> list[int]:
        """14.14: a player with a territory adjacent to the attacked neutral, connected to his
        capital, may send 1 counter of his Reserve; in turn order.  Asked whatever his Reserve
        holds: whether it is empty is secret (14.1), so an empty one answers 'cousin none'."""
        found = []
        for c in self.turn_order():
            if c == attacker:
                continue
            mine = [t for t in self.geo.neighbours(at, self.dikes) if self.owner.get(t) == c]
            if any(self.reserve_reaches(c, t) for t in mine):
                found.append(c)
        return found

    def _battle_goes_on(self) -> None:
        battle = self.war["battle"]
        for entry in battle.log:
            self._event(PUBLIC, f"battle-{entry['type']}", at=self.war["at_battle"],
                        **{("battle_round" if k == "round" else k): v for k, v in entry.items() if k != "type"})
        battle.log.clear()
        if not battle.is_over():
            self.owed = {self.seats.index(ask.seat): BATTLE_KINDS[ask.kind] for ask in battle.pending()}
            return
        self._after_battle(battle.outcome())

    def battle_answer(self, s: int, order: Answer) -> None:
        """A seat's answer to its battle question (secret until the step resolves)."""
        kind = self.owed.pop(s)
        self._event(PUBLIC, "answered", seat=self.seats[s], kind=kind)
        self.war["battle"].answer(self.seats[s], order.kind, self.battle_value(s, order))
        self._battle_goes_on()

    def battle_value(self, s: int, order: Answer) -> Any:
        """The battle's own value for an order (the Reserve's counters, groups in its order)."""
        ask = next(a for a in self.war["battle"].pending() if a.seat == self.seats[s])
        if order.kind == "reserve":
            return Force(*order.value)  # type: ignore[misc]
        if order.kind == "retreat":
            return next((o for o in ask.options if set(o) == set(order.value)), order.value)  # type: ignore[arg-type]
        if order.kind == EXPERIENCE and order.value == "cousin":
            return f"cousin-{self.seats[s]}"
        return order.value

    def battle_options(self, s: int) -> dict[str, Any]:
        ask = next(a for a in self.war["battle"].pending() if a.seat == self.seats[s])
        texts = [self.order_text(Answer(ask.kind, self._plain(ask.kind, option))) for option in ask.options]
        return {"question": BATTLE_KINDS[ask.kind], "orders": texts, "at": self.war["at_battle"],
                **{k: v for k, v in ask.about.items() if isinstance(v, int)}}

    @staticmethod
    def _plain(kind: str, option: Any) -> Any:
        if kind == "reserve":
            return (option.warriors, option.jaguars)
        if kind == EXPERIENCE and str(option).startswith("cousin-"):
            return "cousin"
        return option

    # ---- after a battle ------------------------------------------------------------------------

    def _after_battle(self, outcome: Any) -> None:
        war = self.war
        at = war["at_battle"]
        lake = self.geo.region(at).is_lake
        for seat, points in outcome.sacrifice.items():  # 14.9: none on a lake zone
            o = self.seats.index(seat)
            gained = 0 if lake else points
            self.people[o].sacrifice += gained
            self._event(o, "my-sacrifice", points=gained, total=self.people[o].sacrifice)
        for seat, groups in outcome.lost.items():
            o = self.seats.index(seat)
            for key, lost in groups.items():
                box = self.people[o].chart[RESERVE_BOX if key == RESERVE else key]
                box[0] -= lost.warriors
                box[1] -= lost.jaguars
        for seat, key in outcome.promoted:
            o = self.seats.index(seat)
            if self.edition.counters["jaguars"] > self.people[o].on_chart(1):  # a knight left in stock
                box = self.people[o].chart[RESERVE_BOX if key == RESERVE else key]
                box[0], box[1] = box[0] - 1, box[1] + 1
        for seat, key in outcome.destroyed:  # 14.1: "his general killed"
            o = self.seats.index(seat)
            self.people[o].generals[key] = None
            self._event(PUBLIC, "army-destroyed", seat=seat, army=key)
        for o in {self.seats.index(seat) for seat in outcome.lost}:
            self._event(o, "my-chart", chart=self._chart_json(o))
        self._event(PUBLIC, "battle-over", at=at, winner=outcome.winner, rounds=outcome.rounds)
        retreated = {(self.seats.index(seat), key) for seat, key in outcome.retreated}
        war["battle"] = None
        if war["stage"] == "intercept":
            self._after_interception(outcome, retreated)
        else:
            self._after_arrival(outcome, retreated)

    def _alive(self, s: int, letter: str) -> bool:
        return self.people[s].generals.get(letter) is not None

    def _after_interception(self, outcome: Any, retreated: set) -> None:
        """14.4: the interceptor goes back to its starting territory (pbem: wherever it fought);
        the intercepted army, if it won, "can finish its movement normally"."""
        war = self.war
        o, army, home = war.pop("interceptor")
        s, letter = war["mover"], war["army"]
        if self._alive(o, army):
            self.people[o].generals[army] = home
        if outcome.winner == DEFENDER and self._alive(s, letter):
            self._walk()
            return
        if self._alive(s, letter):  # beaten or both withdrew: back to its own land
            self.people[s].generals[letter] = self.retreat_to(s, war["at_battle"]) or war["route"][0]
        self._moved_on()

    def _after_arrival(self, outcome: Any, retreated: set) -> None:
        war = self.war
        s, letter, where = war["mover"], war["army"], war["route"][-1]
        holder = self.owner.get(where)
        for o, key in retreated:
            if key != RESERVE and (o, key) != (s, letter):
                self.people[o].generals[key] = self.retreat_to(o, where, avoid=where) or self.capital(o)
        if holder is not None and self._lost_everything(holder, where):
            self.revive.add(holder)
        if outcome.staying and outcome.winner == DEFENDER:
            self.garrisons[where] = dict(outcome.staying)  # 14.13: "they remain on the territory"
        if outcome.winner == ATTACKER and self._alive(s, letter):
            if war["defenders"]:
                self._next_defender()
                return
            if holder is not None and where == self.capital(holder):
                self._plunder(s, holder)
                self.people[s].generals[letter] = self.retreat_to(s, where) or war["route"][0]
            else:
                self._capture(s, where)
                if outcome.staying:  # the attacker's own Reinforcements (option "own-side")
                    self.garrisons[where] = dict(outcome.staying)
        elif self._alive(s, letter):
            self.people[s].generals[letter] = self.retreat_to(s, where) or war["route"][0]
        self._moved_on()

    def _lost_everything(self, o: int, where: str) -> bool:
        """14.15: the capital is his last territory and all his troops were captured defending it."""
        person = self.people[o]
        return where == self.capital(o) and not self.cities(o) and not any(map(sum, person.chart.values()))

    def _capture(self, s: int, where: str) -> None:
        """14.7: the victor "captures the territory and places a conquered city marker"; a
        marker of another player is replaced, and a pochteca of another player there leaves."""
        self.owner[where] = s
        self.assimilated.discard(where)
        for o, spies in self.spies.items():
            for letter in [letter for letter, at in spies.items() if at == where and o != s]:
                del spies[letter]
                self._event(PUBLIC, "pochteca-removed", seat=self.seats[o], pochteca=letter, territory=where)
        self._event(PUBLIC, "captured", seat=self.seats[s], territory=where)

    def _plunder(self, s: int, o: int) -> None:
        """14.15: "he takes half of the Sacrifice points (rounded up) of the defender, as well as
        all his Tributes. Then the attacker must retreat"; "If a capital is plundered by a Raid,
        the defender of the capital loses half of his Sacrifice points" (and only that)."""
        victim, victor = self.people[o], self.people[s]
        raid = self.war["raid"]
        points, tributes = math.ceil(victim.sacrifice / 2), 0 if raid else victim.tributes
        victim.sacrifice -= points
        victor.sacrifice += 0 if raid else points
        victim.tributes, victor.tributes = victim.tributes - tributes, victor.tributes + tributes
        self._event(PUBLIC, "plundered", seat=self.seats[s], capital=self.capital(o), victim=self.seats[o],
                    tributes=tributes, raid=raid)
        self._event(o, "my-sacrifice", points=-points, total=victim.sacrifice)
        if not raid:
            self._event(s, "my-sacrifice", points=points, total=victor.sacrifice)

    def _moved_on(self) -> None:
        self.war = None
        self._draw_marker()

    def _free_troops(self) -> None:
        """14.15: "will receive for free 1 General as well as 3 warriors and 1 Jaguar knight on
        the next turn" (at the start of the turn, in the capital)."""
        for o in sorted(self.revive):
            person = self.people[o]
            letter = next((g for g in ARMIES if person.generals.get(g) is None), None)
            if letter is None:
                continue
            person.generals[letter] = self.capital(o)
            person.chart[letter] = list(FREE_TROOPS)
            self._event(PUBLIC, "free-troops", seat=self.seats[o], army=letter)
            self._event(o, "my-chart", chart=self._chart_json(o))
        self.revive = set()

    # ---- what a seat may choose ------------------------------------------------------------------

    def war_choices(self, s: int) -> dict[str, Any]:
        kind = self.owed[s]
        if kind == "plan":
            return {"armies": sorted(self.armies(s)), "seats": [seat for o, seat in enumerate(self.seats) if o != s],
                    "controls": sorted(z for z, c in self.lake_control.items() if c == s)}
        if kind == "march":
            return {"moves": {letter: sorted({route[-1] for route in self.routes(s, letter)})
                              for letter in self.armies(s) if (s, letter) not in self.moved},
                    "together": self.together(s), "en_route": self.en_route_choices(s),
                    "pending": [[letter, place] for kept in self.en_route.get(s, []) for letter, _, _ in kept.boxes
                                if (place := self.meeting_place(s, letter, kept))],
                    "chart": self._chart_json(s), "raid": RAID in self.people[s].hand,
                    "mine": [self.capital(s), *self.cities(s)],
                    "box_limit": self.edition.box_limit}
        return self.battle_options(s)

    def together(self, s: int) -> list[list[str]]:
        """14.5: boxes that may exchange counters: armies on one territory, with the Reserve in
        the capital."""
        groups: dict[str, list[str]] = {}
        for letter, where in self.armies(s).items():
            groups.setdefault(where, []).append(letter)
        capital = self.capital(s)
        groups.setdefault(capital, []).append(RESERVE_BOX)
        return [boxes for _, boxes in sorted(groups.items()) if len(boxes) > 1]

    def _position(self, s: int, box: str) -> str | None:
        return self.capital(s) if box == RESERVE_BOX else self.people[s].generals.get(box)

    def _together_now(self, s: int, boxes: list[str]) -> bool:
        return len(boxes) > 1 and any(set(boxes) <= set(group) for group in self.together(s))

    def crossings(self, s: int, letter: str) -> set[str]:
        """Every land region a move of army `letter` may enter this turn."""
        return {region for route in self.routes(s, letter) for region in route[1:]}

    def meeting_place(self, s: int, letter: str, order: Reorganise) -> str | None:
        """14.5: "An army that crosses its capital or a territory containing an army of his
        color can be reorganized": where army `letter`, moving, meets every other box the order
        names (standing on one region; the Reserve in the capital), or None."""
        boxes = [box for box, _, _ in order.boxes]
        if letter not in boxes or (s, letter) in self.moved or letter not in self.armies(s):
            return None
        places = {self._position(s, box) for box in boxes if box != letter}
        place = places.pop() if len(places) == 1 else None
        return place if place and place != self._position(s, letter) and place in self.crossings(s, letter) else None

    def en_route_choices(self, s: int) -> dict[str, dict[str, list[str]]]:
        """For each army that may move: the regions it may cross and the boxes standing there."""
        groups: dict[str, list[str]] = {}
        for letter, where in self.armies(s).items():
            groups.setdefault(where, []).append(letter)
        groups.setdefault(self.capital(s), []).append(RESERVE_BOX)
        choices = {}
        for letter in self.armies(s):
            if (s, letter) in self.moved:
                continue
            crossed = self.crossings(s, letter)
            met = {where: boxes for where, boxes in sorted(groups.items())
                   if where in crossed and where != self._position(s, letter)}
            if met:
                choices[letter] = met
        return choices

    def _exchange_en_route(self, s: int, region: str) -> None:
        """The reorganisations kept for this move whose boxes meet here; one the move's battles
        made impossible (counters captured on the way) is dropped, its seat alone told."""
        for place, order in [item for item in self.war["exchanges"] if item[0] == region]:
            self.war["exchanges"].remove((place, order))
            try:
                self._check_counts(s, order)
            except IllegalOrderError:
                self._event(s, "my-reorganise-dropped", order=self.order_text(order))
                continue
            self._exchange(s, order)

    def check_war(self, s: int, order: Any) -> None:
        kind = self.owed[s]
        if isinstance(order, Plan):
            unknown = set(order.intercept) - set(self.armies(s))
            if unknown:
                raise IllegalOrderError(f"you have no army {', '.join(sorted(unknown))} on the board")
            if order.allow and set(order.allow) - set(self.seats):
                raise IllegalOrderError(f"no seat {', '.join(sorted(set(order.allow) - set(self.seats)))} in this game")
        elif isinstance(order, Reorganise):
            self._check_reorganise(s, order)
        elif isinstance(order, Move) and order.army is not None:
            if order.army not in self.armies(s) or (s, order.army) in self.moved:
                raise IllegalOrderError(f"army {order.army} cannot move now (destroyed, or it moved this turn: 14.2)")
            route = self.route_of(s, order)
            for kept in self.en_route.get(s, []):
                place = self.meeting_place(s, order.army, kept)
                if place is None or place not in route[1:]:
                    raise IllegalOrderError(
                        f"your {self.order_text(kept)} waits for a move that crosses where those boxes stand; "
                        f"army {order.army} by {' '.join(route[1:])} does not (14.5): write the route through it, "
                        f"or pass to drop it")
            if order.raid and (RAID not in self.people[s].hand or self.owner.get(route[-1]) == s):
                raise IllegalOrderError("a Raid needs a Raid card in your hand and a territory you do not control")
        elif isinstance(order, Answer):
            if BATTLE_KINDS.get(order.kind) != kind:
                raise IllegalOrderError(f"the battle asks you for your {kind} answer")
            value = self.battle_value(s, order)
            if value not in next(a for a in self.war["battle"].pending() if a.seat == self.seats[s]).options:
                raise IllegalOrderError(f"not a legal answer; legal: {', '.join(self.battle_options(s)['orders'])}")

    def _check_reorganise(self, s: int, order: Reorganise) -> None:
        """14.5: boxes standing together, or met by a move of one of them this turn; the same
        counters, at most 4 a box."""
        boxes = [box for box, _, _ in order.boxes]
        crossing = len(boxes) > 1 and any(self.meeting_place(s, letter, order) for letter in boxes)
        if not self._together_now(s, boxes) and not crossing:
            raise IllegalOrderError("only armies on one territory (and the Reserve with an army in the capital) "
                                    "exchange counters, or an army and the boxes standing where its move "
                                    "this turn may cross (14.5)")
        self._check_counts(s, order)

    def _check_counts(self, s: int, order: Reorganise) -> None:
        boxes = [box for box, _, _ in order.boxes]
        chart = self.people[s].chart
        before = [sum(chart[box][i] for box in boxes) for i in (0, 1)]
        after = [sum(counts[i] for _, *counts in order.boxes) for i in (0, 1)]
        if before != after:
            raise IllegalOrderError(f"these boxes hold {before[0]} warriors and {before[1]} Jaguar knights together")
        if any(w + j > self.edition.box_limit for _, w, j in order.boxes):
            raise IllegalOrderError(f"a box holds at most {self.edition.box_limit} counters (14.1)")


__all__ = ["BATTLE_KINDS", "FlowerWar", "WAR_KINDS"]
