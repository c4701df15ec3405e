"""The rules of Azteca as a state machine: who must decide what, and what each order does.

Seats are the peoples, in the record's player order, which is the order of play: seat 0 holds
the Tlatoani card on the first turn and it passes to the left (the next seat) each turn.  All
chance comes from the record's seed, one named stream per draw, so a record's order log
replays exactly.  The rule text behind every step, and every reading, is in
docs/rules-azteca.md.

The turn's eight phases are all named in turn.PHASES; this step of the implementation plays
those in turn.PHASES_PLAYED and passes over the others (see the comment there).  Phase 4 lives
in market.py, phase 5 in pochtecas.py, phase 6 in domination.py (its battles in lake.py), phase
7 in war.py (its battles in battle.py, its orders in war_orders.py) and phase 8 with the game's
end in judgement.py; card plays in cards.py and the deals of 18.0's options in deals.py (their
orders in deal_orders.py); the checks of orders against the rules in
choices.py; views in views.py.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Sequence

from engine.azteca.cards import CardPlays
from engine.azteca.choices import check, legal_choices
from engine.azteca.components import Edition
from engine.azteca.deal_orders import DEAL_ORDERS
from engine.azteca.deals import Deals
from engine.azteca.domination import LakeDomination
from engine.azteca.judgement import JudgementOfTheGods
from engine.azteca.market import SlaveMarket
from engine.azteca.orders import (BOXES, GENERALS, Army, Attack, Bid, Buy, Dike, Discard, Fight, Join, Look, Missions,
                                  Offer, Order, Place, Play, Send, parse_orders, to_text)
from engine.azteca.pochtecas import PochtecaMissions
from engine.azteca.war import BATTLE_KINDS, FlowerWar
from engine.azteca.war_orders import Answer, Move, Plan, Reorganise
from engine.azteca.turn import (CARDS, JUDGEMENT, LAKE, MARKET, OVER, PEOPLES, PHASES, PHASES_PLAYED, POCHTECAS,
                                PUBLIC, PURCHASE, SETUP, SIMULTANEOUS, TRIBUTE, WAR)
from engine.azteca.views import build_view
from engine.core import (Decision, IllegalOrderError, LoggedState, Milestone, NotYourDecisionError, Result, SetupError,
                         submit_in_turn)

@dataclass(frozen=True)
class Setup:
    seats: tuple[str, ...]  # play order; the first holds the Tlatoani card on turn 1
    names: tuple[str, ...]
    options: dict[str, Any]
    seed: int | str
    edition: Edition
    geography: Any  # engine.azteca.geography.Geography (docs: AZTECA.md's API)


@dataclass
class People:
    """One seat's holdings.  Secret to its seat: sacrifice, hand, chart, urn, looked, answer, marker,
    boat_plan (until phase 6 places the boats)."""
    tributes: int = 0
    sacrifice: int = 0  # Sacrifice points held, not yet offered
    hand: list[str] = field(default_factory=list)
    chart: dict[str, list[int]] = field(default_factory=lambda: {box: [0, 0] for box in BOXES})
    generals: dict[str, str | None] = field(default_factory=dict)  # letter -> territory; None: killed
    pochtecas: int = 0  # in the capital, awaiting a mission
    boats: dict[str, int] = field(default_factory=dict)  # where (capital or lake zone) -> how many
    boat_plan: dict[int, int] = field(default_factory=dict)  # lake zone number -> boats, written in phase 5
    urn: int = 0  # offered to Quetzalcoatl over the game
    looked: dict[int, int] = field(default_factory=dict)  # slave-market lot -> value, this turn
    answer: Order | None = None  # a simultaneous decision's order, until every seat has answered
    marker: int | None = None  # setup: the population marker drawn and not yet placed
    last_card: str | None = None  # the last Azteca card played (public: 8.0's "not twice in a row")
    plays: list[Play] = field(default_factory=list)  # cards given to play later this turn (secret)
    boons: dict[str, int] = field(default_factory=dict)  # card effects a later step reads, this turn

    def on_chart(self, kind: int) -> int:
        """Counters of one kind (0 warriors, 1 Jaguar knights) on the organisation chart."""
        return sum(box[kind] for box in self.chart.values())


class AztecaState(SlaveMarket, PochtecaMissions, LakeDomination, FlowerWar, JudgementOfTheGods, CardPlays, Deals,
                  LoggedState):
    game = "azteca"
    histories = (*LoggedState.histories, "completed", "scores")

    def __init__(self, setup: Setup):
        self.setup = setup
        self.seats = setup.seats
        self.n = len(setup.seats)
        self.edition = setup.edition
        self.geo = setup.geography
        edition = self.edition
        self.people = [People() for _ in range(self.n)]
        self.owner: dict[str, int] = {}  # territory -> seat: capitals and cities
        self.assimilated: set[str] = set()
        for s, seat in enumerate(self.seats):
            capital = self.geo.capital(seat).key
            self.owner[capital] = s
            person = self.people[s]
            person.tributes = edition.start["tributes"]
            person.generals = {letter: capital for letter in GENERALS}
            person.boats = {capital: edition.start["boats"]}
        self.dikes: list[str] = []  # shores joined to Tenochtitlan
        self.lake_control: dict[str, int | None] = {lake.key: None for lake in self.geo.lakes()}
        self.markers: dict[str, int] = {}  # territory -> population marker value
        self.placed_by: dict[str, int] = {}  # territory -> seat, while the markers lie face down
        self.markers_revealed = False
        self.population = list(edition.population)
        self._rng("population").shuffle(self.population)  # pop() draws
        self.deck = edition.deck()
        self._rng("azteca-cards").shuffle(self.deck)
        self.discards: list[str] = []
        self.reshuffles = 0
        self.anger = list(edition.anger)
        self._rng("anger:0").shuffle(self.anger)
        self.anger_played: list[int] = []  # since the last reshuffle (public: 15.2 lets players count)
        self.anger_shuffles = 0
        self.market: list[int] = []  # the slave-market cards on lots 1.., this turn (secret)
        self.bidders: list[int] = []
        self.tied: dict[int, list[int]] = {}  # lot -> seats that must re-bid
        self.envoys: dict[int, dict[str, str]] = {}  # phase 5: seat -> pochteca letter -> where
        self.spies: dict[int, dict[str, str]] = {}  # pochtecas on espionage until phase 7 ends
        self.alliances_tried: set[tuple[int, str]] = set()  # (seat, territory) this turn
        self.mission_queue: list[int] = []  # seats whose missions are still to resolve
        self.attack_queue: list[int] = []  # phase 6: the seat announcing attacks first
        self.lake_attacks = 0  # attacks the seat at the head of attack_queue has made
        self.lake_battles = 0  # lake battles fought this turn (each rolls its own stream)
        self.lake_fought: set[int] = set()  # seats that took part in a lake battle this turn
        self.lake_battle_sides: dict[int, str] = {}  # seat -> attacker / defender / neutral
        self.lake_zone = ""
        self.lake_fight: Any = None  # the LakeBattle under way
        self.plans: dict[int, Plan] = {}  # phase 7: each seat's standing orders (secret)
        self.war_markers: list[int] = []  # movement markers still to draw (their order is chance's)
        self.moved: set[tuple[int, str]] = set()  # armies that moved this turn (14.2)
        self.war: dict[str, Any] | None = None  # the move under way and its battle
        self.war_battles = 0
        self.revive: set[int] = set()  # seats owed 14.15's free troops next turn
        self.catastrophes: set[str] = set()  # phase 7: regions that break every chain (the card)
        self.garrisons: dict[str, dict[str, Any]] = {}  # phase 7: territory -> Reinforcements that stayed
        self.en_route: dict[int, list[Any]] = {}  # phase 7: reorganisations the mover's route must cross
        self.quetzalcoatl = 0  # steps climbed
        self.tezcatlipoca = 0  # steps descended
        self.verification = 0  # the verification urn's contents (secret until opened)
        self.first = 0  # the seat holding the Tlatoani card
        self.round = 1
        self.phase = SETUP
        self.owed: dict[int, str] = {}  # seat -> the kind of decision it owes now
        self.queue: list[int] = []  # seats still to take an in-turn decision of this step, in order
        self.queued_kind = ""
        self.next_step = ""  # a step that needs no decision, run once nothing is owed
        self.turn_summary: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []
        self.audiences: list[int] = []
        self.applied: list[tuple[int, Order]] = []
        self.asked_line = 0  # the order log's length when the questions owed now were asked
        self.completed: list[Milestone] = []
        self.scores: list[dict[str, Any]] = []
        self.final: Result | None = None
        self._start_deals()
        self._event(PUBLIC, "setup", seats=list(self.seats), tlatoani=self.seats[self.first])
        if "aztecs" in self.seats and self.geo.dike_links():
            self._ask_in_turn("dike", [self.seats.index("aztecs")])
        else:
            self._ask_all("army")

    # ---- the contract ----------------------------------------------------------------------

    def waiting(self) -> list[int]:
        return sorted(self.owed)

    def decisions(self, options: bool = True) -> list[Decision]:
        return [self.decision_of(s, options) for s in self.waiting()]

    def decision_of(self, s: int, options: bool = True) -> Decision:
        kind = self.owed[s]
        scope: tuple[Any, ...] = (self.tied_lot(s),) if kind == "rebid" else ()
        return Decision(self.seats[s], kind, kind in SIMULTANEOUS, scope, self.legal(s) if options else {})

    def legal(self, s: int) -> dict[str, Any]:
        """What seat s may choose now (private to it)."""
        playable = self.playable(s)  # cards it may play beside its answer, named only when there are some
        deals = self.deal_choices(s)  # deals it may make beside its answer, with the options of 18.0 only
        return {**legal_choices(self, s), **({"play": playable} if playable else {}), **({"deal": deals} if deals else {})}

    def parse(self, text: str) -> list[Order]:
        return parse_orders(text, self.territory_key)

    def order_text(self, order: Order) -> str:
        return to_text(order)

    def territory_key(self, word: str) -> str:
        """A territory written by number is its key; keys stand as they are."""
        if word.isdigit():
            try:
                return self.geo.by_number(int(word)).key
            except (KeyError, ValueError):
                return word
        return word

    def seat_index(self, seat: str) -> int:
        if seat not in self.seats:
            raise NotYourDecisionError(f"no seat {seat!r} in this game")
        return self.seats.index(seat)

    def apply(self, seat: str, order: Order) -> None:
        """Validate one order and carry it out; nothing changes if it is illegal."""
        s = self.seat_index(seat)
        kind = self.owed.get(s)
        if kind is None:
            raise NotYourDecisionError(self._not_asked())
        if isinstance(order, Play):  # beside the decision owed, never its answer (engine/azteca/cards.py)
            self.check_play(s, order)
            owed = dict(self.owed)
            self.applied.append((s, order))
            self._give_play(s, order)
            self._advance()
            if self.owed != owed:  # a card played at once changed what is asked (a storm's attacks)
                self.asked_line = len(self.applied)
            return
        if isinstance(order, DEAL_ORDERS):  # beside the decision owed too (engine/azteca/deals.py)
            self.check_deal(s, order)
            self.applied.append((s, order))
            self._deal(s, order)
            return
        handler = {("dike", Dike): self._setup_dike, ("army", Army): self._answer,
                   ("place", Place): self._place, ("cards", Discard): self._answer,
                   ("purchase", Buy): self._purchase, ("look", Look): self._look, ("bid", Bid): self._answer,
                   ("rebid", Bid): self._answer, ("urn", Offer): self._answer,
                   ("tezcatlipoca", Offer): self._answer, ("send", Send): self._answer,
                   ("mission", Missions): self._missions, ("attack", Attack): self._attack, ("join", Join): self._answer,
                   ("fight", Fight): self._fight, ("plan", Plan): self._answer, ("march", Move): self._march,
                   ("march", Reorganise): self._reorganise,
                   **{(kind, Answer): self.battle_answer for kind in BATTLE_KINDS.values()}}.get((kind, type(order)))
        if handler is None:
            raise IllegalOrderError(f"the game asks you for {ASKING[kind]}")
        check(self, s, kind, order)
        self.applied.append((s, order))
        handler(s, order)
        self._advance()
        if not isinstance(order, Reorganise):  # a reorganisation rides with the move still owed
            self.asked_line = len(self.applied)

    def decision_line(self) -> int:
        """engine.core's optional `decision_line`: card plays, deals and reorganisations ride
        with the decision owed without asking a new one, so they leave the deadline alone (they
        may be secret: a play waiting, an offer, a reorganisation kept for the move)."""
        return self.asked_line

    def submit(self, seat: str, orders: Sequence[Order]) -> list[Order]:
        """Check the whole submission on a copy first; return the orders left for a later turn."""
        self.seat_index(seat)
        plays_first = sorted(orders, key=lambda order: not isinstance(order, (Play, *DEAL_ORDERS)))  # never answers
        return submit_in_turn(self, seat, plays_first)

    def view(self, seat: str | None) -> dict[str, Any]:
        return build_view(self, None if seat is None else self.seat_index(seat))

    def milestones(self) -> list[Milestone]:
        return list(self.completed)

    def scores_by_round(self) -> list[dict[str, Any]]:
        """One entry per game turn: each seat's Tributes and its revealed offer to Tezcatlipoca."""
        return list(self.scores)

    def clone(self) -> "AztecaState":
        return self.copied(self.setup, self.geo, self.edition)

    # ---- shared facts ------------------------------------------------------------------------

    def _rng(self, purpose: str) -> random.Random:
        """The stream of chance for one draw, from the record's seed (replays exactly)."""
        return random.Random(f"{self.setup.seed}:azteca:{purpose}")

    def turn_order(self) -> list[int]:
        """Every seat from the Tlatoani card's holder, to the left."""
        return [(self.first + i) % self.n for i in range(self.n)]

    def tied_lot(self, s: int) -> int | None:
        return next((lot for lot, seats in self.tied.items() if s in seats), None)

    def capital(self, s: int) -> str:
        return self.geo.capital(self.seats[s]).key

    def cities(self, s: int) -> list[str]:
        """The territories seat s controls besides its capital."""
        capital = self.capital(s)
        return sorted(key for key, owner in self.owner.items() if owner == s and key != capital)

    def home_neighbours(self, s: int) -> set[str]:
        """5.1: the territories adjacent to a capital; "for the Aztec player, the dike
        determines the adjacent territories"."""
        capital = self.capital(s)
        near = set(self.geo.neighbours(capital))
        if self.seats[s] == "aztecs":
            near |= {shore for shore in self.dikes}
        return near

    def points_per_step(self) -> int:
        """15.1 / 16.0 / 17.0: Sacrifice points that make Quetzalcoatl climb one step."""
        level = self.setup.options["difficulty"]
        if level == "standard":
            return self.edition.judgement.points_per_step[self.n]
        return {"experienced": 22, "expert": 25}[level]

    def wealth(self, s: int) -> int:
        """1.0's "richest player (adding the tribute to the cost of the warriors and boats)"."""
        person, costs = self.people[s], self.edition.costs
        return (person.tributes + person.on_chart(0) * costs["warrior"] + person.on_chart(1) * costs["jaguar"]
                + sum(person.boats.values()) * costs["boat"])

    def _event(self, audience: int, event: str, **data: Any) -> None:
        self.events.append({"type": event, "round": self.round, **data})
        self.audiences.append(audience)

    def _not_asked(self) -> str:
        if self.phase == OVER:
            return "the game is over"
        return "you owe no decision now; the game waits for " + ", ".join(self.seats[w] for w in self.waiting())

    # ---- asking -------------------------------------------------------------------------------

    def _ask_all(self, kind: str, seats: Sequence[int] | None = None) -> None:
        self.owed = {s: kind for s in (range(self.n) if seats is None else seats)}

    def _ask_in_turn(self, kind: str, seats: Sequence[int]) -> None:
        self.queue = list(seats)
        self.owed = {self.queue.pop(0): kind} if self.queue else {}
        self.queued_kind = kind

    def _next_in_turn(self) -> None:
        self.owed = {self.queue.pop(0): self.queued_kind} if self.queue else {}

    def _answer(self, s: int, order: Order) -> None:
        """A secret simultaneous answer: kept until every asked seat has answered."""
        kind = self.owed.pop(s)
        self.people[s].answer = order
        self._event(PUBLIC, "answered", seat=self.seats[s], kind=kind)
        if not self.owed:
            self._resolve(kind)

    def _answers(self) -> dict[int, Order]:
        answers = {s: p.answer for s, p in enumerate(self.people) if p.answer is not None}
        for person in self.people:
            person.answer = None
        return answers  # type: ignore[return-value]

    def _resolve(self, kind: str) -> None:
        self._play_cards()  # plays given with the secret answers are revealed with them
        {"army": self._charts, "cards": self._discards, "bid": self._bids, "rebid": self._rebids,
         "send": self._sheets, "join": self._joins, "plan": self._plans, "urn": self._urn,
         "tezcatlipoca": self._tezcatlipoca}[kind](self._answers())

    def _advance(self) -> None:
        """Nothing is owed: the steps that need no decision run until one does."""
        while not self.owed and self.phase != OVER and self.next_step:
            step, self.next_step = self.next_step, ""
            getattr(self, step)()

    def _then(self, step: str) -> None:
        """The step (a method's name: states are cloned, so no bound methods) to run next."""
        self.next_step = step

    # ---- setup (5.0, 5.1, 6.0) ----------------------------------------------------------------

    def _setup_dike(self, s: int, order: Dike) -> None:
        """5.0: "The Aztec player further receives a dike that is immediately placed"."""
        self.owed.pop(s)
        self.dikes.append(order.shore)
        self._event(PUBLIC, "dike", seat=self.seats[s], shore=order.shore)
        self._ask_all("army")

    def _charts(self, answers: dict[int, Order]) -> None:
        for s, order in answers.items():
            assert isinstance(order, Army)
            for box, warriors, jaguars in order.boxes:
                self.people[s].chart[box] = [warriors, jaguars]
            self._event(s, "my-chart", chart=self._chart_json(s))
        self._event(PUBLIC, "charts-ready")
        self._ask_population()

    def _chart_json(self, s: int) -> dict[str, list[int]]:
        return {box: list(counts) for box, counts in self.people[s].chart.items()}

    def _ask_population(self) -> None:
        """5.1: the first player draws a marker, looks at it and places it; each in turn."""
        order = self.turn_order()
        free = [t for t in self._valley() if t not in self.markers]
        if not self.population or not free:
            self._reveal_markers()
            return
        s = order[len(self.markers) % self.n]
        self.people[s].marker = self.population.pop()
        self._event(s, "marker-drawn", value=self.people[s].marker)
        self.owed = {s: "place"}

    def _valley(self) -> list[str]:
        return sorted(region.key for region in self.geo.valley())

    def allowed_markers(self, s: int) -> list[str]:
        """5.1: a free Mexico-valley territory, not one adjacent to the capital "unless he
        cannot do otherwise"."""
        free = [t for t in self._valley() if t not in self.markers]
        far = [t for t in free if t not in self.home_neighbours(s)]
        return far or free

    def _place(self, s: int, order: Place) -> None:
        person = self.people[s]
        self.owed.pop(s)
        self.markers[order.territory] = person.marker  # type: ignore[assignment]
        self.placed_by[order.territory] = s
        self._event(PUBLIC, "marker-placed", seat=self.seats[s], territory=order.territory)
        self._event(s, "my-marker", territory=order.territory, value=person.marker)
        person.marker = None
        self._ask_population()

    def _reveal_markers(self) -> None:
        """5.1: "turn the markers face up and remove the 0s"."""
        shown = dict(sorted(self.markers.items()))
        self.markers = {t: v for t, v in shown.items() if v}
        self.placed_by = {}
        self.markers_revealed = True
        self._event(PUBLIC, "markers-revealed", markers=shown)
        self.completed.append(Milestone(self.round, SETUP))  # a notice may tell everyone the game begins
        self._then("_start_turn")

    # ---- phase 1: Azteca cards (8.0) --------------------------------------------------------------

    def _start_turn(self) -> None:
        self.phase = CARDS
        self._event(PUBLIC, "turn", tlatoani=self.seats[self.first])
        self._free_troops()
        self.turn_summary = {}
        self._new_card_turn()
        self._new_deal_turn()
        if self.round == 1:  # "Each player receives 4 cards on the first turn"
            self._refill()
        else:
            self._ask_all("cards")

    def _discards(self, answers: dict[int, Order]) -> None:
        for s, order in sorted(answers.items()):
            assert isinstance(order, Discard)
            for card in order.cards:
                self.people[s].hand.remove(card)
            self.discards.extend(order.cards)
            self._event(PUBLIC, "discarded", seat=self.seats[s], count=len(order.cards))
        self._refill()

    def _refill(self) -> None:
        """8.0: "replenish their hands to 4 cards", in turn order from the Tlatoani."""
        for s in self.turn_order():
            person = self.people[s]
            drawn = [card for card in (self._draw_card() for _ in range(self.edition.hand_size - len(person.hand)))
                     if card is not None]
            person.hand.extend(drawn)
            self._event(PUBLIC, "drew", seat=self.seats[s], count=len(drawn))
            self._event(s, "my-cards", cards=drawn)
        self._phase_done(CARDS)

    def _draw_card(self) -> str | None:
        if not self.deck and self.discards:
            self.reshuffles += 1
            self.deck, self.discards = self.discards, []
            self.deck.sort()  # the pile's order is not a secret to carry into the shuffle
            self._rng(f"azteca-cards:{self.reshuffles}").shuffle(self.deck)
            self._event(PUBLIC, "cards-reshuffled", count=len(self.deck))
        return self.deck.pop() if self.deck else None

    def _phase_done(self, phase: str) -> None:
        """On to the next phase this implementation plays (PHASES_PLAYED)."""
        later = [p for p in PHASES_PLAYED if PHASES.index(p) > PHASES.index(phase)]
        if PHASES.index(phase) < PHASES.index(WAR) < PHASES.index(later[0]):
            self._recall_spies()  # the Flower War is passed over (turn.PHASES_PLAYED)
        self._then({TRIBUTE: "_tribute", PURCHASE: "_start_purchases", MARKET: "_start_market",
                    POCHTECAS: "_start_pochtecas", LAKE: "_start_lake", WAR: "_start_war", JUDGEMENT: "_start_judgement"}[later[0]])

    # ---- phase 2: tribute and sacrifice points (9.0) ----------------------------------------------

    def income(self, s: int) -> tuple[int, int]:
        """(Tributes, Sacrifice points) seat s receives: capital 4, a valley city 1, an outer
        city 2, a lake zone controlled 1; a city's population marker, +1 assimilated, +1 outer."""
        tribute, sacrifice = self.edition.tribute, self.edition.sacrifice
        outer = {region.key for region in self.geo.outer()}
        tributes = tribute["capital"] + tribute["lake"] * sum(owner == s for owner in self.lake_control.values())
        points = 0
        for city in self.cities(s):
            tributes += tribute["outer"] if city in outer else tribute["valley"]
            points += self.markers.get(city, 0) + sacrifice["outer"] * (city in outer)
            points += sacrifice["assimilated"] * (city in self.assimilated)
        return tributes, points

    def _tribute(self) -> None:
        self.phase = TRIBUTE
        self._play_cards()
        for s in self.turn_order():
            tributes, points = self.income(s)
            person = self.people[s]
            person.tributes += tributes
            person.sacrifice += points
            self._event(PUBLIC, "tribute", seat=self.seats[s], tributes=tributes)  # "announce aloud"
            self._event(s, "my-sacrifice", points=points, total=person.sacrifice)
        self._phase_done(TRIBUTE)

    # ---- phase 3: purchases (10.0) ------------------------------------------------------------------

    def _start_purchases(self) -> None:
        self.phase = PURCHASE
        self._ask_in_turn("purchase", self.turn_order())

    def purchase_cost(self, order: Buy) -> int:
        costs = self.edition.costs
        return (sum(w for _, w, _ in order.boxes) * costs["warrior"] + sum(j for _, _, j in order.boxes) * costs["jaguar"]
                + len(order.generals) * costs["general"] + order.pochtecas * costs["pochteca"]
                + order.boats * costs["boat"] + len(order.dikes) * costs["dike"])

    def _purchase(self, s: int, order: Buy) -> None:
        person = self.people[s]
        self.owed.pop(s)
        person.tributes -= self.purchase_cost(order)
        capital = self.capital(s)
        for letter in order.generals:  # 10.2: "Any new General starts from the capital"
            person.generals[letter] = capital
        for box, warriors, jaguars in order.boxes:  # placed secretly on the chart
            person.chart[box][0] += warriors
            person.chart[box][1] += jaguars
        person.pochtecas += order.pochtecas
        if order.boats:
            person.boats[capital] = person.boats.get(capital, 0) + order.boats
        self.dikes.extend(order.dikes)
        self._event(PUBLIC, "bought", seat=self.seats[s], warriors=sum(w for _, w, _ in order.boxes),
                    jaguars=sum(j for _, _, j in order.boxes), generals=list(order.generals),
                    pochtecas=order.pochtecas, boats=order.boats, dikes=list(order.dikes),
                    spent=self.purchase_cost(order))
        if order.boxes:
            self._event(s, "my-chart", chart=self._chart_json(s))
        self._next_in_turn()
        if not self.owed:
            self._phase_done(PURCHASE)

ASKING = {
    "dike": "the shore of your dike: 'dike SHORE'",
    "army": "your organisation chart: 'army A 3w 1j, B 3w 1j, C 2w 1j, R 2w'",
    "place": "where your population marker goes: 'place TERRITORY'",
    "cards": "the cards you discard: 'discard CARD ...' or 'keep'",
    "purchase": "your purchases: 'buy ...' or 'buy nothing'",
    "look": "the two slave-market cards you look at: 'look N N'",
    "bid": "your slave-market bid: 'bid LOT TRIBUTES' or 'bid none'",
    "rebid": "your new bid on the tied lot: 'bid LOT TRIBUTES' or 'bid none'",
    "send": "your pochtecas' destinations and boats' zones: 'send A 11, B exp, 2B4' or 'send nothing'",
    "mission": "your pochtecas' missions: 'mission A alliance, B espionage' or 'mission none'",
    "attack": "your lake attack: 'attack ZONE SEAT' or 'attack none'",
    "join": "your side in the lake battle: 'join attacker', 'join defender' or 'join neutral'",
    "fight": "whether your lake battle goes on: 'continue' or 'stop'",
    "plan": "your standing orders for the Flower War: 'plan intercept A, retreat 2, ...' or 'plan none'",
    "march": "your army's move: 'move A TERRITORY' or 'pass' (after 'reorganise ...' if you wish)",
    "reserve": "your Reserve's commitment: 'reserve 1w 1j' or 'reserve none'",
    "cousin": "your counter for the neutral: 'cousin warrior', 'cousin jaguar' or 'cousin none'",
    "losses": "the counters you lose: 'lose A 1w, R 1j'",
    "retreat": "what leaves the battle: 'retreat A R' or 'retreat none'",
    "promote": "the warrior your victory promotes: 'promote A' or 'promote none'",
    "urn": "your offer to Quetzalcoatl: 'quetzalcoatl POINTS'",
    "tezcatlipoca": "your offer to Tezcatlipoca: 'tezcatlipoca POINTS'",
}


def check_setup_counts(edition: Edition, geography: Any) -> None:
    """5.1 needs a population marker for each of the Mexico valley's territories."""
    if len(edition.population) < len(geography.valley()):
        raise SetupError(f"the edition has {len(edition.population)} population markers for "
                         f"{len(geography.valley())} territories")


__all__ = ["AztecaState", "OVER", "PEOPLES", "PHASES", "PHASES_PLAYED", "SETUP", "SIMULTANEOUS", "Setup"]
