"""The rules of Cóatl as a state machine: who must decide what, and what each order does.

Seats are indices into `seats` (play order; seat 0 holds the First Player marker).  Pieces
are (colour letter, kind) pairs; prophecy and temple cards are their numbers in the data
files.  The rule text behind every step, and every reading of it, is in docs/rules-coatl.md.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Sequence

from engine.coatl.assembly import Coatl, Piece, Rules, Workshop
from engine.coatl.components import KINDS
from engine.coatl.orders import (Assemble, Choose, Keep, Order, Sacrifice, Take, parse_orders, piece_text,
                                 to_text)
from engine.core import (PUBLIC, Decision, IllegalOrderError, LoggedState, Milestone, NotYourDecisionError, Result,
                         submit_in_turn)

SETUP, PLAY, FINAL, OVER = "setup", "play", "final", "over"
TIE_BREAK = "cards-then-best-coatl"


@dataclass(frozen=True)
class Setup:
    seats: tuple[str, ...]  # play order; the first holds the First Player marker
    names: tuple[str, ...]
    options: dict[str, Any]
    seed: int | str


@dataclass
class Player:
    board: list[Piece] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)  # prophecies (secret)
    temples: list[int] = field(default_factory=list)  # own temple cards: the secret one, committed ones
    committed: list[int] = field(default_factory=list)  # taken face up by Priest Commitment (public)
    tokens: list[str] = field(default_factory=list)  # unused Sacrifice tokens
    coatls: list[Coatl] = field(default_factory=list)
    dealt: list[int] = field(default_factory=list)  # setup: the prophecies drawn (secret)
    kept: tuple[int, ...] | None = None  # setup: the secret choice, until every seat has chosen

    @property
    def completed(self) -> list[Coatl]:
        return [coatl for coatl in self.coatls if coatl.complete]


class CoatlState(LoggedState):
    game = "coatl"
    histories = (*LoggedState.histories, "completed_phases", "scores")

    def __init__(self, setup: Setup, rules: Rules | None = None):
        self.setup = setup
        self.seats = setup.seats
        self.n = len(setup.seats)
        self.rules = rules or Rules(setup.options)
        pieces = self.rules.pieces
        limits = self.rules.limits
        seed = setup.seed
        fewer = setup.options["body_pieces"] == "fewer"
        self.bags: dict[str, list[str]] = {}
        for kind in KINDS:
            count = pieces.bodies(self.n, fewer) if kind == "body" else pieces.per_colour[kind]
            bag = [letter for letter in pieces.colours for _ in range(count)]
            random.Random(f"{seed}:bag:{kind}").shuffle(bag)
            self.bags[kind] = bag  # pop() draws
        self.supply: dict[str, list[list[str] | None]] = {kind: [None] * pieces.supply[kind] for kind in KINDS}
        self._fill_supply()
        deck = [card.id for card in self.rules.prophecies.values() for _ in range(card.copies)]
        random.Random(f"{seed}:prophecies").shuffle(deck)
        self.deck = deck  # pop() draws the top card
        self.discard: list[int] = []
        self.reshuffles = 0
        self.row: list[int] = []  # the face-up prophecies
        self._refill_row()
        temples = sorted(self.rules.temples)
        random.Random(f"{seed}:temples").shuffle(temples)
        self.players = [Player(tokens=list(pieces.tokens) if setup.options["sacrifice_tokens"] == "on" else [])
                        for _ in range(self.n)]
        for player in self.players:
            player.temples = [temples.pop() for _ in range(limits["secret_temples"])]
        half = (len(temples) + 1) // 2
        self.piles = [temples[:half], temples[half:]]  # face up; the last card of each is on top
        for s, player in enumerate(self.players):
            player.dealt = self._draw(limits["setup_draw_first"] + s)

        self.phase = SETUP
        self.round = 1
        self.turn = 0  # the seat whose turn it is
        self.actions_left = 1
        self.follow_up = False  # See the Future: the seat owes its Choose action
        self.started = False
        self.passes = 0  # passes in a row, by successive seats
        self.trigger: dict[str, Any] | None = None  # what triggered the game end, and who
        self.final_turns: list[tuple[int, int]] = []  # (seat, actions) still to come
        self.events: list[dict[str, Any]] = []
        self.audiences: list[int] = []
        self.applied: list[tuple[int, Order]] = []
        self.completed_phases: list[Milestone] = []
        self.scores: list[dict[str, Any]] = []  # one entry per scored milestone (scores_by_round)
        self.completions: list[tuple[int, int]] = []  # (seat, cóatl number) completed this round
        self.final: Result | None = None
        self._event(PUBLIC, "setup", row=list(self.row), commons=self.commons(),
                    dealt={self.seats[s]: len(p.dealt) for s, p in enumerate(self.players)})
        for s, player in enumerate(self.players):
            self._event(s, "dealt", cards=sorted(player.dealt), temples=list(player.temples))

    # ---- the contract ----------------------------------------------------------------------

    def waiting(self) -> list[int]:
        if self.phase == SETUP:
            return [s for s, player in enumerate(self.players) if player.kept is None]
        return [self.turn] if self.phase in (PLAY, FINAL) else []

    def owed_kind(self) -> str:
        if self.phase == SETUP:
            return "keep"
        return "choose" if self.follow_up else "turn"

    def decisions(self, options: bool = True) -> list[Decision]:
        return [self.decision_of(s, options) for s in self.waiting()]

    def decision_of(self, s: int, options: bool = True) -> Decision:
        kind = self.owed_kind()
        scope: tuple[Any, ...] = ()
        if self.phase == FINAL:
            scope = ("final turn", self.actions_left)
        return Decision(self.seats[s], kind, kind == "keep", scope, self.legal(s) if options else {})

    def legal(self, s: int) -> dict[str, Any]:
        """The seat's choices now (private to it)."""
        player, limits = self.players[s], self.rules.limits
        if self.phase == SETUP:
            return {"dealt": sorted(player.dealt), "keep_at_most": limits["keep"]}
        room = self.rules.pieces.board - len(player.board)
        choose = {"row": list(self.row), "deck": len(self.deck) + len(self.discard),
                  "hand_room": limits["hand"] - len(player.hand)}
        if self.follow_up:
            return {**choose, "hand": sorted(player.hand)}
        return {"take": {kind: [i + 1 for i, space in enumerate(self.supply[kind])
                                if space and len(space) <= room] for kind in KINDS},
                "choose": choose, "hand": sorted(player.hand), "temples": list(player.temples),
                "commons": self.commons(), "sacrifice": list(player.tokens)}

    def parse(self, text: str) -> list[Order]:
        return parse_orders(text)

    def order_text(self, order: Order) -> str:
        return to_text(order)

    def seat_index(self, seat: str) -> int:
        if seat not in self.seats:
            raise NotYourDecisionError(f"no seat {seat!r} in this game")
        return self.seats.index(seat)

    def apply(self, seat: str, order: Order) -> None:
        """Validate one order and carry it out; nothing changes if it is illegal."""
        s = self.seat_index(seat)
        if s not in self.waiting():
            raise NotYourDecisionError(self._not_asked())
        owed = self.owed_kind()
        if isinstance(order, Keep) and owed == "keep":
            self._keep(s, order)
        elif isinstance(order, Choose) and owed in ("turn", "choose"):
            self._choose(s, order)
        elif isinstance(order, (Take, Assemble, Sacrifice)) and owed == "turn":
            {Take: self._take, Assemble: self._assemble, Sacrifice: self._sacrifice}[type(order)](s, order)
        elif isinstance(order, (Keep, Take, Choose, Assemble, Sacrifice)):
            raise IllegalOrderError(f"the game asks you for {self._asking()}")
        else:
            raise IllegalOrderError(f"not a Cóatl order: {order!r}")
        self.applied.append((s, order))
        if owed != "keep":
            self._after_action(s)

    def submit(self, seat: str, orders: Sequence[Order]) -> list[Order]:
        """Check the whole submission on a copy first; return the orders left for a later turn."""
        self.seat_index(seat)
        return submit_in_turn(self, seat, orders)

    def view(self, seat: str | None) -> dict[str, Any]:
        from engine.coatl.views import build_view
        return build_view(self, None if seat is None else self.seat_index(seat))

    def milestones(self) -> list[Milestone]:
        return list(self.completed_phases)

    def scores_by_round(self) -> list[dict[str, Any]]:
        """One entry per scored milestone: each round of turns in which a cóatl was completed,
        and the final scoring (docs/rules-coatl.md, "Reports")."""
        return list(self.scores)

    def clone(self) -> "CoatlState":
        return self.copied(self.setup, self.rules)

    # ---- shared facts ------------------------------------------------------------------------

    def commons(self) -> list[int]:
        """The face-up common temple cards: the top of each pile."""
        return [pile[-1] for pile in self.piles if pile]

    def _event(self, audience: int, event: str, **data: Any) -> None:
        self.events.append({"type": event, "round": self.round, **data})
        self.audiences.append(audience)

    def _not_asked(self) -> str:
        if self.phase == OVER:
            return "the game is over"
        waiting = ", ".join(self.seats[w] for w in self.waiting())
        if self.phase == SETUP:
            return f"you have already kept your prophecies; the game waits for {waiting}"
        return f"it is not your turn; the game waits for {waiting}"

    def _asking(self) -> str:
        return {"keep": "the prophecies you keep from your draw: 'keep N N N' or 'keep none'",
                "choose": "the Choose action of your See the Future: '[discard N ...;] choose N ... [deck N]'",
                "turn": "your action: take, choose, an assembly (new/add/fulfil/complete), pass or sacrifice",
                }[self.owed_kind()]

    def _draw(self, count: int) -> list[int]:
        """Prophecies from the top of the deck; an empty deck is the shuffled discard pile."""
        drawn = []
        for _ in range(count):
            if not self.deck and self.discard:
                self.reshuffles += 1
                self.deck, self.discard = self.discard, []
                random.Random(f"{self.setup.seed}:reshuffle:{self.reshuffles}").shuffle(self.deck)
                self._event(PUBLIC, "reshuffle", cards=len(self.deck))
            if not self.deck:
                break
            drawn.append(self.deck.pop())
        return drawn

    def _refill_row(self) -> None:
        self.row.extend(self._draw(self.rules.limits["face_up"] - len(self.row)))

    def _fill_supply(self) -> list[str]:
        """Every empty space from its bag, as far as the bag goes; what was drawn."""
        drawn = []
        per_space = self.rules.pieces.bodies_per_space
        for kind in KINDS:
            size = per_space if kind == "body" else 1
            bag = self.bags[kind]
            for i, space in enumerate(self.supply[kind]):
                if space is None and len(bag) >= size:
                    self.supply[kind][i] = [bag.pop() for _ in range(size)]
                    drawn.extend(piece_text(colour, kind) for colour in self.supply[kind][i])
        return drawn

    def _supply_empty(self, *kinds: str) -> bool:
        return all(space is None for kind in kinds for space in self.supply[kind])

    def _replenish(self, always: bool = False) -> None:
        """"Replenish the Supply board whenever its supply of body segments is emptied OR its
        supply of heads and tails are emptied" (always after a Perfect Pick)."""
        if always or self._supply_empty("body") or self._supply_empty("head", "tail"):
            drawn = self._fill_supply()
            if drawn:
                self._event(PUBLIC, "replenish", pieces=drawn)

    # ---- setup -------------------------------------------------------------------------------

    def _keep(self, s: int, order: Keep) -> None:
        player, most = self.players[s], self.rules.limits["keep"]
        if len(order.cards) > most:
            raise IllegalOrderError(f"you may keep at most {most} prophecies")
        left = list(player.dealt)
        for card in order.cards:
            if card not in left:
                raise IllegalOrderError(f"you drew no prophecy {card} (your draw: "
                                        f"{', '.join(map(str, sorted(player.dealt)))})")
            left.remove(card)
        player.kept = order.cards
        self._event(PUBLIC, "kept", seat=self.seats[s])
        self._event(s, "my-keep", cards=list(order.cards))
        if all(p.kept is not None for p in self.players):
            self._end_setup()

    def _end_setup(self) -> None:
        for player in self.players:
            left = list(player.dealt)
            for card in player.kept or ():
                left.remove(card)
            player.hand = list(player.kept or ())
            self.discard.extend(left)
            player.dealt = []
        self._event(PUBLIC, "hands", sizes={self.seats[s]: len(p.hand) for s, p in enumerate(self.players)})
        self.completed_phases.append(Milestone(self.round, SETUP))
        self.phase = PLAY
        self._start_turn(0, 1)

    # ---- the actions -------------------------------------------------------------------------

    def _room(self, s: int) -> int:
        return self.rules.pieces.board - len(self.players[s].board)

    def _take(self, s: int, order: Take) -> None:
        spaces = self.supply[order.kind]
        if not 1 <= order.space <= len(spaces):
            raise IllegalOrderError(f"the supply board has {order.kind} spaces 1 to {len(spaces)}")
        content = spaces[order.space - 1]
        if content is None:
            raise IllegalOrderError(f"{order.kind} space {order.space} is empty")
        if len(content) > self._room(s):
            raise IllegalOrderError(f"your player board has room for {self._room(s)} more piece(s), "
                                    f"not {len(content)}")
        spaces[order.space - 1] = None
        self.players[s].board.extend((colour, order.kind) for colour in content)
        self._event(PUBLIC, "take", seat=self.seats[s], kind=order.kind, space=order.space,
                    pieces=[piece_text(colour, order.kind) for colour in content])
        self._replenish()

    def _choose(self, s: int, order: Choose) -> None:
        player, limits = self.players[s], self.rules.limits
        if order.discard and not self.follow_up:
            raise IllegalOrderError("cards are discarded before choosing only with See the Future")
        hand = list(player.hand)
        for card in order.discard:
            if card not in hand:
                raise IllegalOrderError(f"you hold no prophecy {card} to discard")
            hand.remove(card)
        row = list(self.row)
        for card in order.cards:
            if card not in row:
                raise IllegalOrderError(f"prophecy {card} is not face up (face up: {', '.join(map(str, self.row))})")
            row.remove(card)
        available = len(self.deck) + len(self.discard) + len(order.discard)
        if order.deck > available:
            raise IllegalOrderError(f"only {available} prophecies are left to draw")
        taking = len(order.cards) + order.deck
        if len(hand) + taking > limits["hand"]:
            raise IllegalOrderError(f"that would make {len(hand) + taking} prophecies in your hand; "
                                    f"the limit is {limits['hand']}")
        if not taking and (not self.follow_up or (len(hand) < limits["hand"] and (row or available))):
            raise IllegalOrderError("choose at least one prophecy: face-up numbers and/or 'deck N'"
                                    + ("" if len(hand) < limits["hand"] else " (your hand is full)"))
        player.hand = hand
        self.discard.extend(order.discard)
        self.row = row
        drawn = self._draw(order.deck)
        player.hand.extend([*order.cards, *drawn])
        self._event(PUBLIC, "choose", seat=self.seats[s], cards=list(order.cards), deck=order.deck,
                    discarded=len(order.discard))
        if drawn:
            self._event(s, "drawn", cards=drawn)
        self.follow_up = False

    def _assemble(self, s: int, order: Assemble) -> None:
        player = self.players[s]
        shop = Workshop(self.rules, player.board, player.hand, player.temples, self.commons(), player.coatls)
        shop.run(order.steps)
        # Taken common temples leave their piles; the next card of a pile is turned up only now,
        # when the action is over (docs/rules-coatl.md).
        for pile in self.piles:
            if pile and pile[-1] not in shop.commons:
                pile.pop()
        player.board, player.hand, player.temples, player.coatls = shop.board, shop.hand, shop.temples, shop.coatls
        player.committed = [t for t in player.committed if t in player.temples]
        self._event(PUBLIC, "assemble", seat=self.seats[s], steps=to_text(order))
        for done in shop.completions:
            self.completions.append((s, done.number))
            self._event(PUBLIC, "complete", seat=self.seats[s], coatl=done.number, points=done.points,
                        temple=done.temple, prophecies=list(player.coatls[done.number - 1].prophecies))
        if shop.completions and len(player.completed) >= self.rules.limits["coatls"] and self.trigger is None:
            self.trigger = {"by": "coatl", "seat": s}
            self._event(PUBLIC, "end-triggered", by="coatl", seat=self.seats[s])

    def _sacrifice(self, s: int, order: Sacrifice) -> None:
        player = self.players[s]
        if order.token not in player.tokens:
            raise IllegalOrderError("this game is played without Sacrifice tokens"
                                    if self.setup.options["sacrifice_tokens"] == "off"
                                    else f"you have already used your {order.token} token")
        if order.token == "pick":
            size = self.rules.pieces.bodies_per_space if order.kind == "body" else 1
            bag = self.bags[order.kind]
            if len(bag) < size:
                raise IllegalOrderError(f"the {order.kind} bag has {len(bag)} piece(s) left, not {size}")
            if self._room(s) < size:
                raise IllegalOrderError(f"your player board has room for {self._room(s)} more piece(s), not {size}")
            drawn = [bag.pop() for _ in range(size)]
            player.board.extend((colour, order.kind) for colour in drawn)
            self._event(PUBLIC, "sacrifice", seat=self.seats[s], token="pick",
                        pieces=[piece_text(colour, order.kind) for colour in drawn])
            self._replenish(always=True)
        elif order.token == "commit":
            if order.temple not in self.commons():
                raise IllegalOrderError(f"temple {order.temple} is not face up (face up: "
                                        f"{', '.join(map(str, self.commons())) or 'none'})")
            for pile in self.piles:
                if pile and pile[-1] == order.temple:
                    pile.pop()
                    break
            player.temples.append(order.temple)
            player.committed.append(order.temple)
            self._event(PUBLIC, "sacrifice", seat=self.seats[s], token="commit", temple=order.temple)
        else:
            self.discard.extend(self.row)
            self.row = []
            self._refill_row()
            self.follow_up = True
            self._event(PUBLIC, "sacrifice", seat=self.seats[s], token="future", row=list(self.row))
        player.tokens.remove(order.token)

    # ---- turns and the end -------------------------------------------------------------------

    def _after_action(self, s: int) -> None:
        if self.follow_up:
            return  # the same seat now owes its Choose action
        last = self.applied[-1][1]
        self.passes = self.passes + 1 if isinstance(last, Assemble) and not last.steps else 0
        self._refill_row()
        if self.trigger is None and self._supply_empty("body") and not self.bags["body"]:
            self.trigger = {"by": "bodies", "seat": s}
            self._event(PUBLIC, "end-triggered", by="bodies", seat=self.seats[s])
        self.actions_left -= 1
        if self.actions_left:
            return
        if self.phase == PLAY and self.passes >= self.n:
            self._event(PUBLIC, "stalled")  # a whole round of passes: nobody can or will act
            self.completed_phases.append(Milestone(self.round, PLAY))
            self._finish()
        elif self.phase == PLAY:
            if self.trigger and self.trigger["by"] == "coatl":
                t = self.trigger["seat"]
                self._begin_final([(o, 2) for o in range(t + 1, self.n)] + [(o, 1) for o in range(t)])
            elif self.trigger and s == self.n - 1:
                self._begin_final([(o, 1) for o in range(self.n)])
            else:
                self._start_turn((s + 1) % self.n, 1)
        elif self.final_turns:
            self._start_turn(*self.final_turns.pop(0))
        else:
            self._finish()

    def _begin_final(self, turns: list[tuple[int, int]]) -> None:
        """"If Game End was triggered by a player completing their 3rd Cóatl, each other player
        will take one final turn" (two actions later in turn order, one earlier); after an empty
        body supply, the round is played out and "then each player gets one final turn"."""
        self.completed_phases.append(Milestone(self.round, PLAY))
        self._event(PUBLIC, "final-turns", turns=[[self.seats[o], actions] for o, actions in turns])
        self.final_turns = turns[1:]
        self._start_turn(*turns[0])  # may end a round played in the play phase: scored as such
        self.phase = FINAL

    def _start_turn(self, s: int, actions: int) -> None:
        if s == 0 and self.started:
            self._score_round()
            self.round += 1
        self.started = True
        self.turn, self.actions_left = s, actions

    def _score_round(self) -> None:
        """A round of turns is over: if a cóatl was completed in it, its points are news, so
        the round is scored (a report by mail); a round where nothing scored is not."""
        if self.completions:
            self.scores.append(self._round_entry())
            self.completed_phases.append(Milestone(self.round, self.phase, scored=True))

    def _round_entry(self) -> dict[str, Any]:
        """Each seat's points this round, its total so far and the cóatls it completed this
        round, card by card (public: completions are announced)."""
        entry = {}
        for s, player in enumerate(self.players):
            done = [{"coatl": number, **self._card_points(player.coatls[number - 1])}
                    for seat, number in self.completions if seat == s]
            entry[self.seats[s]] = {"points": sum(c["points"] for c in done), "total": self.tally(s)[0],
                                    "coatls": done}
        self.completions = []
        return entry

    def _card_points(self, coatl: Coatl) -> dict[str, Any]:
        return {"letters": coatl.letters,
                "prophecies": {str(card): self.rules.prophecy_points(card, coatl.letters) for card in coatl.prophecies},
                "temple": coatl.temple, "points": coatl.points}

    def tally(self, s: int) -> tuple[int, int, int]:
        """(points, cards fulfilled by completed cóatls, best single cóatl)."""
        done = self.players[s].completed
        points = [coatl.points for coatl in done]
        cards = sum(len(coatl.prophecies) + (coatl.temple is not None) for coatl in done)
        return sum(points), cards, max(points, default=0)

    def _finish(self) -> None:
        tallies = [self.tally(s) for s in range(self.n)]

        def key(s: int) -> tuple[int, int, int]:
            return tuple(-value for value in tallies[s])  # type: ignore[return-value]

        ranking = sorted(range(self.n), key=lambda s: (key(s), s))
        places = {self.seats[s]: 1 + sum(key(o) < key(s) for o in range(self.n)) for s in range(self.n)}
        breakdown = {}
        for s, player in enumerate(self.players):
            points, cards, best = tallies[s]
            breakdown[self.seats[s]] = {
                "coatls": [self._card_points(c) for c in player.completed],
                "unfinished": sum(not c.complete for c in player.coatls),
                "cards": cards, "best": best, "points": points}
        self.final = Result(ranking=tuple(self.seats[s] for s in ranking),
                            scores={self.seats[s]: tallies[s][0] for s in range(self.n)},
                            tie_break=TIE_BREAK, breakdown=breakdown, places=places, breakdown_key="coatls")
        last = self._round_entry()  # the last round's completions: the final report tells them
        self.scores.append({seat: {**last[seat], "cards": data["cards"], "best": data["best"]}
                            for seat, data in breakdown.items()})
        self.completed_phases.append(Milestone(self.round, FINAL, scored=True))
        self.phase = OVER
        self._event(PUBLIC, "game-over", **self.final.to_json())
