"""Phase 4, the slave market (11.0): who takes part, the looks, sealed bids, re-bids.

A part of AztecaState (engine/azteca/state.py), which holds the market's facts (`market`,
`bidders`, `tied`) and the asking and event machinery these steps use."""
from __future__ import annotations

from typing import Any

from engine.azteca.orders import Bid, Look, Order
from engine.azteca.turn import MARKET, PUBLIC


class SlaveMarket:
    market: list[int]
    bidders: list[int]
    tied: dict[int, list[int]]
    people: Any
    seats: tuple[str, ...]


    def _start_market(self) -> None:
        """11.0: "A player that does not have any Tributes cannot participate"."""
        self.phase = MARKET
        self.bidders = [s for s in self.turn_order() if self.people[s].tributes > 0]
        if not self.bidders:
            self._event(PUBLIC, "market-empty")
            self._phase_done(MARKET)
            return
        self.market = list(self.edition.slave_market)
        self._rng(f"market:{self.round}").shuffle(self.market)
        self._event(PUBLIC, "market-dealt", lots=len(self.market), bidders=[self.seats[s] for s in self.bidders])
        self._ask_in_turn("look", self.bidders)

    def _look(self, s: int, order: Look) -> None:
        """"each player in turn looks at 2 cards of his choice"; no one else learns them."""
        self.owed.pop(s)
        self.people[s].looked = {lot: self.market[lot - 1] for lot in order.lots}
        self._event(PUBLIC, "looked", seat=self.seats[s], lots=list(order.lots))
        self._event(s, "my-look", cards={str(lot): value for lot, value in self.people[s].looked.items()})
        self._next_in_turn()
        if not self.owed:
            self._ask_all("bid", self.bidders)

    def _bids(self, answers: dict[int, Order]) -> None:
        """Revealed together; per lot the highest bid takes it, the others recover theirs; a
        tie at the top re-bids."""
        bids = {s: bid for s, bid in answers.items() if isinstance(bid, Bid)}
        self._event(PUBLIC, "bids", bids={self.seats[s]: [b.lot, b.tributes] if b.lot else None
                                          for s, b in sorted(bids.items())})
        self.tied = {}
        for lot in range(1, len(self.market) + 1):
            on_lot = {s: b.tributes for s, b in bids.items() if b.lot == lot and b.tributes > 0}
            if not on_lot:
                continue
            top = max(on_lot.values())
            best = [s for s in self.turn_order() if on_lot.get(s) == top]
            if len(best) == 1:
                self._win_lot(best[0], lot, top)
            else:
                self.tied[lot] = best
        if self.tied:
            self._event(PUBLIC, "market-tie", lots={str(lot): [self.seats[s] for s in seats]
                                                    for lot, seats in self.tied.items()})
            self._ask_all("rebid", sorted(s for seats in self.tied.values() for s in seats))
        else:
            self._end_market()

    def _rebids(self, answers: dict[int, Order]) -> None:
        """"the player who bid the most takes it. If there is still a tie, both players lose
        their Tributes and no one takes the lot"."""
        self._event(PUBLIC, "rebids", bids={self.seats[s]: b.tributes for s, b in sorted(answers.items())
                                            if isinstance(b, Bid)})
        for lot, seats in sorted(self.tied.items()):
            offers = {s: answers[s].tributes for s in seats}  # type: ignore[union-attr]
            top = max(offers.values())
            best = [s for s in seats if offers[s] == top]
            if top and len(best) == 1:
                self._win_lot(best[0], lot, top)
            elif top:
                for s in best:
                    self.people[s].tributes -= top
                self._event(PUBLIC, "lot-lost", lot=lot, seats=[self.seats[s] for s in best], tributes=top)
        self.tied = {}
        self._end_market()

    def _win_lot(self, s: int, lot: int, tributes: int) -> None:
        value = self.market[lot - 1]
        person = self.people[s]
        person.tributes -= tributes
        person.sacrifice += value
        self._event(PUBLIC, "lot-won", lot=lot, seat=self.seats[s], tributes=tributes)
        self._event(s, "my-lot", lot=lot, points=value, total=person.sacrifice)

    def _end_market(self) -> None:
        self.market = []
        for person in self.people:
            person.looked = {}
        self._phase_done(MARKET)
