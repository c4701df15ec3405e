"""The options "The Big Deal" and "Pirogue Express Service" (18.0): "Cards can be sold or
exchanged between players. ... Players can give or lend Tributes to each other. A player is
never forced to keep his word." and "A player can allow another player to use his boats for
movements."

Offers, their answers and loans of boats (engine/azteca/deal_orders.py) never answer a decision:
a seat adds them to whatever decision it owes, as card plays are (cards.py), so nobody waits
for them; they are talked over in press.  An offer is seen by its two parties only; what it
hands over (Tributes, cards, leave to use boats) changes hands when it is accepted, which the
engine enforces; any other promise is the players' own.  Leave to use boats lasts until the
turn ends and counts wherever an army's own boats would (war.py's `may_cross`).  Readings:
docs/rules-azteca.md, "Deals".

A part of AztecaState (engine/azteca/state.py), which holds the hands, the Tributes, the boats
and the asking and event machinery.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from engine.azteca.deal_orders import ALL_ZONES, DealAnswer, DealOffer, Lend, Terms, terms_text
from engine.azteca.turn import PUBLIC, SETUP, SIMULTANEOUS
from engine.core import IllegalOrderError

MAX_OPEN = 8  # open offers a seat may have made at once (keeps a state small)
MAX_CARDS = 8  # cards named on one side of a deal (twice a full hand)
DONE = {"accept": "deal-accepted", "decline": "deal-declined", "withdraw": "deal-withdrawn"}  # private events


@dataclass(frozen=True)
class OpenOffer:
    giver: int
    to: int
    number: int  # per pair of seats: the giver's 1st, 2nd, ... offer to `to`
    give: Terms
    take: Terms


class Deals:
    people: Any
    seats: tuple[str, ...]
    setup: Any
    owed: dict[int, str]

    def _start_deals(self) -> None:
        self.offers_made: dict[tuple[int, int], int] = {}  # (giver, to) -> offers numbered so far
        self._new_deal_turn()

    def _new_deal_turn(self) -> None:
        """Offers and loans of boats last until the turn ends (pbem reading)."""
        self.offers: list[OpenOffer] = []
        self.boat_loans: set[tuple[int, int, str]] = set()  # (lender, borrower, lake zone key)

    # ---- what the options allow -------------------------------------------------------------

    def big_deal(self) -> bool:
        return self.setup.options["big_deal"] == "on"

    def pirogue_express(self) -> bool:
        return self.setup.options["pirogue_express"] == "on"

    def deals_allowed(self) -> bool:
        return (self.big_deal() or self.pirogue_express()) and self.phase != SETUP

    def borrows(self, s: int, zone: str) -> bool:
        """Pirogue Express: another seat's boats in the zone that seat s has leave to use."""
        return any((lender, s, zone) in self.boat_loans and self.people[lender].boats.get(zone)
                   for lender in range(self.n))

    def lends(self, lender: int, s: int, zone: str) -> bool:
        return (lender, s, zone) in self.boat_loans

    # ---- checks -------------------------------------------------------------------------------

    def check_deal(self, s: int, order: Any) -> None:
        """Raise IllegalOrderError, naming the rule, unless seat s may give this deal order now."""
        if not (self.big_deal() or self.pirogue_express()):
            raise IllegalOrderError("deals need the option big_deal or pirogue_express (18.0)")
        if self.phase == SETUP:
            raise IllegalOrderError("deals begin with the first game turn, after the preparation (5.0-6.0)")
        if isinstance(order, Lend):
            self._other(order.seat, s)
            self._check_terms(Terms(boats=order.zones))
        elif isinstance(order, DealOffer):
            self._check_offer(s, order)
        elif order.verb == "withdraw":
            self._open_offer(s, self._other(order.seat, s), order.number)
        else:
            offer = self._open_offer(self._other(order.seat, s), s, order.number)
            if order.verb == "accept":
                self._check_acceptance(offer)

    def _other(self, seat: str, s: int) -> int:
        if seat not in self.seats or self.seats.index(seat) == s:
            others = ", ".join(o for o in self.seats if o != self.seats[s])
            raise IllegalOrderError(f"a deal is made with another seat of this game ({others}), not {seat}")
        return self.seats.index(seat)

    def _check_terms(self, terms: Terms) -> None:
        if (terms.tributes or terms.cards) and not self.big_deal():
            raise IllegalOrderError("Tributes and cards change hands only with the option big_deal (18.0 The Big Deal)")
        if terms.boats and not self.pirogue_express():
            raise IllegalOrderError("boats are lent only with the option pirogue_express (18.0 Pirogue Express Service)")
        zones = {lake.number for lake in self.geo.lakes()}
        if not set(terms.boats) <= zones | {ALL_ZONES}:
            raise IllegalOrderError(f"the lake zones are {', '.join(map(str, sorted(zones)))}")
        if len(terms.cards) > MAX_CARDS:
            raise IllegalOrderError(f"a side of a deal names at most {MAX_CARDS} cards")
        for card in terms.cards:
            try:
                self.edition.card(card)
            except KeyError:
                raise IllegalOrderError(f"there is no Azteca card {card!r}") from None

    def _check_offer(self, s: int, order: DealOffer) -> None:
        self._other(order.seat, s)
        self._check_terms(order.give)
        self._check_terms(order.take)
        short = self._short(s, order.give)
        if short:
            raise IllegalOrderError(f"you cannot offer more than you hold: {short}")
        if sum(offer.giver == s for offer in self.offers) >= MAX_OPEN:
            raise IllegalOrderError(f"you have {MAX_OPEN} open offers: withdraw one first")

    def _short(self, s: int, terms: Terms) -> str:
        """What of `terms` seat s does not hold now ("" if it holds it all)."""
        person = self.people[s]
        if terms.tributes > person.tributes:
            return f"{person.tributes} Tributes, not {terms.tributes}"
        missing = Counter(terms.cards) - Counter(person.hand)
        return f"no {', '.join(sorted(missing))} in hand" if missing else ""

    def _open_offer(self, giver: int, to: int, number: int) -> OpenOffer:
        for offer in self.offers:
            if (offer.giver, offer.to, offer.number) == (giver, to, number):
                return offer
        raise IllegalOrderError(f"there is no open offer number {number} from {self.seats[giver]} to {self.seats[to]}")

    def _check_acceptance(self, offer: OpenOffer) -> None:
        """The terms change hands now: both sides must hold them, and neither may have given a
        secret answer still closed (what is in a closed hand, a bid or discards, stays there)."""
        secret = next((kind for kind in self.owed.values() if kind in SIMULTANEOUS), None)
        if secret is not None and offer.giver not in self.owed:
            raise IllegalOrderError(f"{self.seats[offer.giver]} owes no {secret} answer now (given, or not asked): "
                                    f"a deal waits until the secret answers are revealed")
        if self._short(offer.giver, offer.give):  # which card is gone is not said: it may have gone in another deal
            raise IllegalOrderError(f"{self.seats[offer.giver]} no longer holds what the offer gives")
        short = self._short(offer.to, offer.take)
        if short:
            raise IllegalOrderError(f"you cannot give what the offer asks: {short}")

    # ---- carrying out -------------------------------------------------------------------------

    def _deal(self, s: int, order: Any) -> None:
        if isinstance(order, Lend):
            self._lend(s, self.seats.index(order.seat), order.zones)
            self._event(PUBLIC, "boats-lent", lender=self.seats[s], borrower=order.seat,
                        zones=self._zone_keys(order.zones))
        elif isinstance(order, DealOffer):
            to = self.seats.index(order.seat)
            number = self.offers_made.get((s, to), 0) + 1
            self.offers_made[(s, to)] = number
            self.offers.append(OpenOffer(s, to, number, order.give, order.take))
            self._tell_parties(self.offers[-1], "deal-offered")
        else:
            party = self.seats.index(order.seat)
            offer = self._open_offer(s, party, order.number) if order.verb == "withdraw" \
                else self._open_offer(party, s, order.number)
            self.offers.remove(offer)
            self._tell_parties(offer, DONE[order.verb])
            if order.verb == "accept":
                self._hand_over(offer.giver, offer.to, offer.give)
                self._hand_over(offer.to, offer.giver, offer.take)
                self._event(PUBLIC, "deal", **{side: self.seats[p] for side, p in (("from", offer.giver), ("to", offer.to))},
                            tributes=[offer.give.tributes, offer.take.tributes],
                            cards=[len(offer.give.cards), len(offer.take.cards)],
                            boats=[self._zone_keys(offer.give.boats), self._zone_keys(offer.take.boats)])

    def _tell_parties(self, offer: OpenOffer, event: str) -> None:
        """An offer and what becomes of it are seen by its two parties only (the cards named too)."""
        for reader in (offer.giver, offer.to):
            self._event(reader, event, **{"from": self.seats[offer.giver]}, to=self.seats[offer.to],
                        number=offer.number, give=terms_text(offer.give), take=terms_text(offer.take))

    def _hand_over(self, giver: int, to: int, terms: Terms) -> None:
        """Tributes and cards move (Tributes are public, a card's name only to the two parties);
        boats stay their owner's: the other side gets leave to use them this turn."""
        self.people[giver].tributes -= terms.tributes
        self.people[to].tributes += terms.tributes
        for card in terms.cards:
            self.people[giver].hand.remove(card)
            self.people[to].hand.append(card)
        self._lend(giver, to, terms.boats)

    def _lend(self, lender: int, borrower: int, zones: tuple[int, ...]) -> None:
        self.boat_loans |= {(lender, borrower, zone) for zone in self._zone_keys(zones)}

    def _zone_keys(self, zones: tuple[int, ...]) -> list[str]:
        if ALL_ZONES in zones:
            return sorted(lake.key for lake in self.geo.lakes())
        return [self.zone_key(zone) for zone in zones]

    # ---- what a seat sees and may choose ---------------------------------------------------------

    def offers_of(self, s: int) -> list[dict[str, Any]]:
        """The open offers seat s made or received (private to the two parties)."""
        return [{"from": self.seats[o.giver], "to": self.seats[o.to], "number": o.number,
                 "give": terms_text(o.give), "take": terms_text(o.take)}
                for o in self.offers if s in (o.giver, o.to)]

    def loans_view(self) -> list[dict[str, str]]:
        """Leave to use boats is public: it changes who may cross a lake zone."""
        return [{"lender": self.seats[lender], "borrower": self.seats[borrower], "zone": zone}
                for lender, borrower, zone in sorted(self.boat_loans)]

    def deal_choices(self, s: int) -> dict[str, Any]:
        """What seat s may do by deal now (empty when the options are off or in the preparation)."""
        if not self.deals_allowed():
            return {}
        acceptable = []
        for offer in self.offers:
            if offer.to == s:
                try:
                    self._check_acceptance(offer)
                except IllegalOrderError:
                    continue
                acceptable.append([self.seats[offer.giver], offer.number])
        person = self.people[s]
        return {"seats": [seat for seat in self.seats if seat != self.seats[s]],
                "tributes": person.tributes if self.big_deal() else 0,
                "cards": sorted(person.hand) if self.big_deal() else [],
                "zones": sorted(lake.number for lake in self.geo.lakes()) if self.pirogue_express() else [],
                "offers": self.offers_of(s), "accept": acceptable,
                "withdraw": [[self.seats[o.to], o.number] for o in self.offers if o.giver == s],
                "open_left": MAX_OPEN - sum(o.giver == s for o in self.offers)}


__all__ = ["Deals", "MAX_OPEN", "OpenOffer"]
