"""Azteca's bots.  `random` gives any legal order, read from the seat's own decision options
only (what the seat may know)."""
from __future__ import annotations

import random
from typing import Any

from engine.azteca.deal_orders import DealAnswer, DealOffer, Lend, Terms
from engine.azteca.orders import (BOXES, EXPEDITION, Army, Attack, Bid, Buy, Dike, Discard, Fight, Join, Look, Missions,
                                  Offer, Order, Place, Play, Send, parse_line)
from engine.azteca.war_orders import Move, Plan, Reorganise

PLAY_CHANCE = 0.2  # how often the random bot plays a card it may play before answering
DEAL_CHANCE = 0.1  # how often it makes, answers or withdraws a deal before answering (18.0's options)


def _spread(rng: random.Random, counts: dict[str, int], room: dict[str, int]) -> dict[str, list[int]]:
    """Counters of each kind ("w", "j") dealt one by one into random boxes with room."""
    boxes: dict[str, list[int]] = {box: [0, 0] for box in room}
    for index, kind in enumerate(("w", "j")):
        for _ in range(counts[kind]):
            open_boxes = [box for box in boxes if sum(boxes[box]) < room[box]]
            if not open_boxes:
                break
            boxes[rng.choice(open_boxes)][index] += 1
    return boxes


def _boxes(placed: dict[str, list[int]]) -> tuple[tuple[str, int, int], ...]:
    return tuple((box, *placed[box]) for box in BOXES if box in placed and sum(placed[box]))  # type: ignore[misc]


class RandomBot:
    name = "random"

    def __init__(self, seed: int | str = 0):
        self.rng = random.Random(f"azteca-random:{seed}")

    def order(self, state: Any, s: int) -> Order:
        decision = state.decision_of(s)
        playable = decision.options.get("play")
        if playable and self.rng.random() < PLAY_CHANCE:  # a play never answers: asked again after
            card = self.rng.choice(sorted(playable))
            return Play(card, self.rng.choice(playable[card]))
        deal = decision.options.get("deal")  # only with the options on: no draw from the stream otherwise
        if deal and self.rng.random() < DEAL_CHANCE:
            chosen = self._deal(deal)
            if chosen is not None:  # a deal never answers: asked again after
                return chosen
        return getattr(self, f"_{decision.kind}")(decision.options)

    def _deal(self, deal: dict[str, Any]) -> Order | None:
        """Accept or decline an offer it may accept, withdraw one, lend boats, or offer a small gift or trade."""
        rng = self.rng
        if deal["accept"] and rng.random() < 0.6:
            return DealAnswer("accept", *rng.choice(deal["accept"]))
        if deal["withdraw"] and rng.random() < 0.3:
            return DealAnswer("withdraw", *rng.choice(deal["withdraw"]))
        if deal["accept"] and rng.random() < 0.3:
            return DealAnswer("decline", *rng.choice(deal["accept"]))
        seat = rng.choice(deal["seats"])
        if deal["zones"] and rng.random() < 0.3:
            return Lend(seat, (rng.choice(deal["zones"]),))
        if not deal["open_left"]:
            return None
        tributes = min(deal["tributes"], rng.randint(0, 2))
        card = (rng.choice(deal["cards"]),) if deal["cards"] and rng.random() < 0.5 else ()
        boats = (rng.choice(deal["zones"]),) if deal["zones"] and rng.random() < 0.5 else ()
        give = Terms(tributes, card, boats)
        if not give:
            return None
        ask = Terms(tributes=1) if deal["cards"] and rng.random() < 0.5 else Terms()  # Tributes need the big deal
        return DealOffer(seat, give, ask)

    def _dike(self, options: dict[str, Any]) -> Order:
        return Dike(self.rng.choice(options["shores"]))

    def _army(self, options: dict[str, Any]) -> Order:
        room = {box: options["box_limit"] for box in options["boxes"]}
        return Army(_boxes(_spread(self.rng, {"w": options["warriors"], "j": options["jaguars"]}, room)))

    def _place(self, options: dict[str, Any]) -> Order:
        return Place(self.rng.choice(options["territories"]))

    def _cards(self, options: dict[str, Any]) -> Order:
        return Discard(tuple(sorted(card for card in options["hand"] if self.rng.random() < 0.3)))

    def _purchase(self, options: dict[str, Any]) -> Order:
        rng, costs, left = self.rng, options["costs"], options["stock"]
        tributes = rng.randint(0, options["tributes"])  # spend up to this much, keep the rest
        generals = []
        for general in options["generals"]:  # a new general needs a warrior too
            if rng.random() < 0.5 and costs["general"] + costs["warrior"] <= tributes:
                generals.append(general)
                tributes -= costs["general"]
        alive = [box for box in BOXES if box == "R" or box in generals or box not in options["generals"]]
        room = {box: options["box_limit"] - sum(options["chart"][box]) for box in alive}
        jaguars = min(left["jaguars"], rng.randint(0, tributes // costs["jaguar"]))
        tributes -= jaguars * costs["jaguar"]
        warriors = min(left["warriors"], tributes // costs["warrior"], len(generals) + rng.randint(0, 3))
        tributes -= warriors * costs["warrior"]
        placed = _spread(rng, {"w": warriors, "j": jaguars}, room)
        generals = [general for general in generals if sum(placed[general])]  # a new general needs troops
        boats = min(left["boats"], rng.randint(0, 1), tributes // costs["boat"])
        tributes -= boats * costs["boat"]
        pochtecas = min(left["pochtecas"], rng.randint(0, 1), tributes // costs["pochteca"])
        tributes -= pochtecas * costs["pochteca"]
        dikes = (rng.choice(options["dikes"]),) if options["dikes"] and tributes >= costs["dike"] and rng.random() < 0.5 else ()
        buy = Buy(_boxes(placed), tuple(sorted(generals)), pochtecas, boats, dikes)
        return buy if self._affordable(buy, options) else Buy()

    @staticmethod
    def _affordable(buy: Buy, options: dict[str, Any]) -> bool:
        costs = options["costs"]
        cost = (sum(w for _, w, _ in buy.boxes) * costs["warrior"] + sum(j for _, _, j in buy.boxes) * costs["jaguar"]
                + len(buy.generals) * costs["general"] + buy.pochtecas * costs["pochteca"]
                + buy.boats * costs["boat"] + len(buy.dikes) * costs["dike"])
        return cost <= options["tributes"] and all(
            box == "R" or box in buy.generals or box not in options["generals"] for box, _, _ in buy.boxes)

    def _look(self, options: dict[str, Any]) -> Order:
        return Look(tuple(sorted(self.rng.sample(options["lots"], options["look"]))))

    def _bid(self, options: dict[str, Any]) -> Order:
        if self.rng.random() < 0.2:
            return Bid(None)
        return Bid(self.rng.choice(options["lots"]), self.rng.randint(0, options["tributes"]))

    def _rebid(self, options: dict[str, Any]) -> Order:
        return Bid(options["lot"], self.rng.randint(0, options["tributes"]))

    def _send(self, options: dict[str, Any]) -> Order:
        """Each pochteca to a different territory or on an expedition (some kept home); every
        boat in a random zone."""
        rng = self.rng
        free = list(options["destinations"])
        rng.shuffle(free)
        sent = []
        for letter in options["pochtecas"]:
            if rng.random() < 0.3 or not free:
                sent.append((letter, EXPEDITION))
            elif rng.random() < 0.9:
                sent.append((letter, free.pop()))
        boats: dict[int, int] = {}
        for _ in range(options["boats"]):
            zone = rng.choice(options["zones"])
            boats[zone] = boats.get(zone, 0) + 1
        return Send(tuple(sent), tuple(sorted(boats.items())))

    def _mission(self, options: dict[str, Any]) -> Order:
        """A random mission for each pochteca, dropped when the Tributes or assimilations run out."""
        tributes, room, chosen = options["tributes"], options["assimilations"], []
        for letter, choice in sorted(options["pochtecas"].items()):
            mission = self.rng.choice(choice["missions"])
            price = options["prices"][mission]
            if mission != "none" and price <= tributes and (mission != "assimilation" or room > 0):
                tributes -= price
                room -= mission == "assimilation"
                chosen.append((letter, mission))
        return Missions(tuple(chosen))

    def _attack(self, options: dict[str, Any]) -> Order:
        if self.rng.random() < 0.5:
            return Attack(None)
        zone, seat = self.rng.choice(options["targets"])
        return Attack(zone, seat)

    def _join(self, options: dict[str, Any]) -> Order:
        return Join(self.rng.choice(options["sides"]))

    def _fight(self, options: dict[str, Any]) -> Order:
        return Fight(self.rng.random() < 0.6)

    def _plan(self, options: dict[str, Any]) -> Order:
        rng = self.rng
        maybe = lambda value: value if rng.random() < 0.5 else None  # noqa: E731 - None leaves it asked
        allow = maybe(tuple(sorted(seat for seat in options["seats"] if rng.random() < 0.5)))
        return Plan(tuple(a for a in options["armies"] if rng.random() < 0.5), allow, maybe(rng.randint(0, 4)),
                    maybe(rng.randint(0, 4)), maybe(rng.choice(("warriors", "jaguars"))),
                    maybe(rng.choice(("warrior", "jaguar", "none"))), maybe(rng.random() < 0.5))

    def _march(self, options: dict[str, Any]) -> Order:
        rng = self.rng
        if options["pending"]:  # a reorganisation kept for the move: the army goes where it meets the others
            army, where = options["pending"][0]
            return Move(army, (where,))
        if options["together"] and rng.random() < 0.2:
            return self._reorganise(options, rng.choice(options["together"]))
        if options["en_route"] and rng.random() < 0.1:
            army = rng.choice(sorted(options["en_route"]))
            where = rng.choice(sorted(options["en_route"][army]))
            return self._reorganise(options, [army, *options["en_route"][army][where]])
        moves = [(army, where) for army, places in sorted(options["moves"].items()) for where in places]
        if not moves or rng.random() < 0.2:
            return Move(None)
        army, where = rng.choice(moves)
        raid = options["raid"] and where not in options["mine"] and rng.random() < 0.3
        return Move(army, (where,), raid)

    def _reorganise(self, options: dict[str, Any], boxes: list[str]) -> Order:
        """The counters of these boxes dealt among them at random."""
        counts = {"w": sum(options["chart"][b][0] for b in boxes), "j": sum(options["chart"][b][1] for b in boxes)}
        placed = _spread(self.rng, counts, {box: options["box_limit"] for box in boxes})
        return Reorganise(tuple((box, *placed[box]) for box in BOXES if box in placed))  # type: ignore[misc]

    def _answer(self, options: dict[str, Any]) -> Order:
        return parse_line(self.rng.choice(options["orders"]))

    _reserve = _cousin = _losses = _retreat = _promote = _answer

    def _urn(self, options: dict[str, Any]) -> Order:
        return Offer("quetzalcoatl", self.rng.randint(0, options["sacrifice"]))

    def _tezcatlipoca(self, options: dict[str, Any]) -> Order:
        return Offer("tezcatlipoca", self.rng.randint(0, options["sacrifice"]))


class HeuristicBot(RandomBot):
    """Greedy play for Sacrifice points: spends Tributes on pochtecas and troops (keeping a few
    for the market), bids on the best lot it looked at, sends pochtecas where a mission pays,
    holds the lake next to its capital, attacks neutral territories with population markers
    with strong armies and retreats when weaker, feeds Tezcatlipoca enough to calm him and
    gives the rest to Quetzalcoatl.  It reads its own options and secrets (the lots it looked
    at) plus public board facts only.  It plays the cards that need no aim (Tlaloc,
    Yacatecuhtli, Tlenamacac) at once, Uitzilpochtli (and, when the option sends them to its own
    army, Reinforcements) on the territory it attacks, and discards the rest."""
    name = "heuristic"
    SLACK = 3  # what the Tlatoani's die and the other seats bring, on a bad day
    PER_POINT = 1  # Tributes bid for each Sacrifice point of a lot it looked at
    STRONG = 4  # combat strength (warrior 1, Jaguar knight 2) an army needs to attack
    RETREAT_BELOW = 2  # standing order: leave a battle once the force falls below this
    KEEP = 3  # Tributes never spent in purchases
    POOR = 6  # below this many Tributes pochtecas go on expeditions (they bring Tributes)

    def __init__(self, seed: int | str = 0):
        super().__init__(seed)
        self.rng = random.Random(f"azteca-heuristic:{seed}")

    # Card effects it plays beside any decision (they need no aim), and those it plays on its attack.
    PLAY_AT_ONCE = ("tributes", "free-mission", "offering")
    PLAY_ON_ATTACK = ("yellow-dice",)

    def order(self, state: Any, s: int) -> Order:
        self.state, self.s = state, s  # public board facts read by the answers below
        decision = state.decision_of(s)
        playable = decision.options.get("play", {})
        for card in sorted(playable):
            if state.edition.card(card).effect in self.PLAY_AT_ONCE and "" in playable[card]:
                return Play(card, "")
        return getattr(self, f"_{decision.kind}")(decision.options)

    def _attack_effects(self) -> tuple[str, ...]:
        own_side = self.state.setup.options.get("reinforcements") == "own-side"
        return self.PLAY_ON_ATTACK + (("reinforcements",) if own_side else ())

    def _useful(self, card: str) -> bool:
        effect = self.state.edition.card(card).effect
        return effect in self.PLAY_AT_ONCE or effect in self._attack_effects()

    def _looked(self) -> dict[int, int]:
        person = self.state.people[self.s]  # its own secret: the market cards it looked at
        return dict(person.looked)

    def _cards(self, options: dict[str, Any]) -> Order:
        """Keeps the cards it plays; the others make room for new ones."""
        return Discard(tuple(sorted(card for card in options["hand"] if not self._useful(card))))

    def _purchase(self, options: dict[str, Any]) -> Order:
        """Pochtecas up to 3 (cities); then troops for its armies, Jaguar knights first (a box
        holds 4), a killed general replaced; KEEP Tributes stay for the market and missions."""
        costs, left = options["costs"], options["stock"]
        budget = options["tributes"] - self.KEEP
        pochtecas = max(0, min(left["pochtecas"], 3 - self.state.people[self.s].pochtecas, budget // costs["pochteca"]))
        budget -= pochtecas * costs["pochteca"]
        generals, boxes = [], []
        jaguars, warriors = left["jaguars"], left["warriors"]
        for box in ("A", "B", "C"):
            dead = box in options["generals"]
            if dead and budget < costs["general"] + 2 * costs["jaguar"]:
                continue
            spend = budget - (costs["general"] if dead else 0)
            room = options["box_limit"] - sum(options["chart"][box])
            j = max(0, min(jaguars, room, spend // costs["jaguar"]))
            w = max(0, min(warriors, room - j, (spend - j * costs["jaguar"]) // costs["warrior"]))
            if j + w:
                generals += [box] if dead else []
                boxes.append((box, w, j))
                budget = spend - j * costs["jaguar"] - w * costs["warrior"]
                jaguars, warriors = jaguars - j, warriors - w
        return Buy(tuple(boxes), tuple(generals), pochtecas)

    def _look(self, options: dict[str, Any]) -> Order:
        return Look(tuple(options["lots"][:options["look"]]))

    def _bid(self, options: dict[str, Any]) -> Order:
        looked = self._looked()
        lot = max(sorted(looked), key=lambda lot: looked[lot], default=None)
        if lot is None or not looked[lot] or options["tributes"] == 0:
            return Bid(None)
        return Bid(lot, min(options["tributes"] // 2, self.PER_POINT * looked[lot]) or 1)

    def _rebid(self, options: dict[str, Any]) -> Order:
        return Bid(options["lot"], min(options["tributes"], self._looked().get(options["lot"], 2)))

    def _home_zone(self) -> int:
        state = self.state
        zones = sorted(state.geo.regions[key].number for key in state.geo.lake_neighbours(state.capital(self.s)))
        return zones[0] if zones else 1

    def _send(self, options: dict[str, Any]) -> Order:
        """Poor: every pochteca on an expedition.  Otherwise to a neutral valley territory
        (alliance) or one of its own (assimilation), the rest on expeditions; every boat in the
        lake zone next to its capital."""
        state, s = self.state, self.s
        useful = [region.key for region in state.geo.valley() if region.key in options["destinations"]
                  and state.owner.get(region.key) in (None, s) and region.key not in state.assimilated]
        poor = state.people[s].tributes < self.POOR
        sent = tuple((letter, EXPEDITION if poor or not useful else useful.pop(0)) for letter in options["pochtecas"])
        return Send(sent, ((self._home_zone(), options["boats"]),) if options["boats"] else ())

    def _mission(self, options: dict[str, Any]) -> Order:
        tributes, room, chosen = options["tributes"], options["assimilations"], []
        for letter, choice in sorted(options["pochtecas"].items()):
            for mission in ("assimilation", "alliance", "alliance 2", "alliance 4"):
                price = options["prices"].get(mission)
                if mission in choice["missions"] and price <= tributes and (mission != "assimilation" or room > 0):
                    tributes -= price
                    room -= mission == "assimilation"
                    chosen.append((letter, mission))
                    break
        return Missions(tuple(chosen))

    def _attack(self, options: dict[str, Any]) -> Order:
        return Attack(None)

    def _join(self, options: dict[str, Any]) -> Order:
        return Join("neutral")

    def _fight(self, options: dict[str, Any]) -> Order:
        mine = options["boats"].get(self.state.seats[self.s], 0)
        return Fight(mine > sum(options["boats"].values()) - mine)

    def _plan(self, options: dict[str, Any]) -> Order:
        """Retreat once weaker than a small army; lose warriors first; promote."""
        return Plan(retreat_below=self.RETREAT_BELOW, losses="warriors", promote=True)

    def _march(self, options: dict[str, Any]) -> Order:
        """A strong army attacks a neutral valley territory with a population marker (its
        Sacrifice points each turn), the best marker first once they are face up."""
        state = self.state
        valley = {region.key for region in state.geo.valley()}
        for letter, places in sorted(options["moves"].items()):
            warriors, jaguars = options["chart"][letter]
            if warriors + 2 * jaguars < self.STRONG:
                continue
            targets = [where for where in places if where in valley and where in state.markers
                       and state.owner.get(where) is None]
            if targets:
                value = (lambda where: state.markers[where]) if state.markers_revealed else (lambda where: 0)
                target = max(targets, key=value)
                playable = options.get("play", {})
                for card in sorted(playable):  # given with the move, played as the battle begins
                    if state.edition.card(card).effect in self._attack_effects() and target in playable[card]:
                        return Play(card, target)
                return Move(letter, (target,))
        return Move(None)

    def _reserve_for_anger(self) -> int:
        """Its share of the worst Anger card still to come (the cards played since the shuffle
        are public); near the underworlds enough to calm him nearly alone (the Tlatoani's die
        and the others bring a little), all of it one step away."""
        state = self.state
        left = list(state.edition.anger)
        for card in state.anger_played:
            if card in left:
                left.remove(card)
        steps_left = state.edition.judgement.tezcatlipoca_steps - state.tezcatlipoca
        worst = max(left or state.edition.anger)
        if steps_left > 2:
            return -(-worst // state.n)  # its share
        return max(0, worst - (self.SLACK if steps_left > 1 else 0))

    def _urn(self, options: dict[str, Any]) -> Order:
        return Offer("quetzalcoatl", max(0, options["sacrifice"] - self._reserve_for_anger()))

    def _tezcatlipoca(self, options: dict[str, Any]) -> Order:
        return Offer("tezcatlipoca", options["sacrifice"])


BOTS = {"random": RandomBot, "heuristic": HeuristicBot}
