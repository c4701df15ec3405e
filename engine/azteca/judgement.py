"""Phase 8, the Judgement of the Gods (15.0), and the end of the game (15.3, 1.0's tie-breaks).

A part of AztecaState (engine/azteca/state.py), which holds the gods' steps, the urns' counts
and the Anger cards, and the asking and event machinery these steps use."""
from __future__ import annotations

from typing import Any

from engine.azteca.orders import Offer, Order
from engine.azteca.turn import JUDGEMENT, OVER, PUBLIC
from engine.core import Milestone, Result

WIN_TIE_BREAK = "assimilated-then-richest"
LOST = "tezcatlipoca"  # the result's tie-break when the universe is destroyed: nobody wins


class JudgementOfTheGods:
    people: Any
    seats: tuple[str, ...]
    edition: Any


    def _start_judgement(self) -> None:
        """15.1: offers to Quetzalcoatl are secret (the urn is opened only at the end), so the
        turn order in which they go in changes nothing a seat can know: they are asked at once."""
        self.phase = JUDGEMENT
        self._play_cards()
        self._ask_all("urn")

    def _urn(self, answers: dict[int, Order]) -> None:
        for s, offer in answers.items():
            assert isinstance(offer, Offer)
            person = self.people[s]
            person.sacrifice -= offer.points
            person.urn += offer.points
            self.verification += offer.points  # the same number in the verification urn
            self._event(s, "my-offer", god="quetzalcoatl", points=offer.points, urn=person.urn)
        self._event(PUBLIC, "urn-closed")
        self._ask_all("tezcatlipoca")

    def _tezcatlipoca(self, answers: dict[int, Order]) -> None:
        """15.2: offers revealed at once; the Tlatoani rolls the white die three times and keeps
        the best; the total must reach the Anger card drawn, else Tezcatlipoca steps down."""
        offers = {s: answers[s].points for s in range(self.n)}  # type: ignore[union-attr]
        for s, points in offers.items():
            self.people[s].sacrifice -= points
        rng = self._rng(f"tezcatlipoca:{self.round}")
        dice = [rng.randint(1, 6) for _ in range(self.edition.judgement.tezcatlipoca_dice)]
        card = self._draw_anger()
        added = sum(self.boon(s, "offering") for s in range(self.n))  # Tlenamacac's points
        total = sum(offers.values()) + added + max(dice)
        calm = total >= card
        if not calm:
            self.tezcatlipoca += 1
        self._event(PUBLIC, "tezcatlipoca", offers={self.seats[s]: p for s, p in sorted(offers.items())},
                    dice=dice, card=card, cards=added, total=total, calm=calm, steps=self.tezcatlipoca)
        self._verify()
        self.turn_summary = {self.seats[s]: {"tezcatlipoca": offers[s], "tributes": self.people[s].tributes}
                             for s in range(self.n)}
        self._end_turn()

    def _draw_anger(self) -> int:
        """15.2 N.B.: "the 3 cards must all have been played before being reshuffled"."""
        if not self.anger:
            self.anger_shuffles += 1
            self.anger = sorted(self.edition.anger)
            self._rng(f"anger:{self.anger_shuffles}").shuffle(self.anger)
            self.anger_played = []
            self._event(PUBLIC, "anger-reshuffled")
        card = self.anger.pop()
        self.anger_played.append(card)
        return card

    def verification_due(self) -> bool:
        """15.1: opened every two game turns, and every turn once Quetzalcoatl stands on the
        penultimate step."""
        judgement = self.edition.judgement
        return (self.round % judgement.verify_every == 0
                or self.quetzalcoatl == judgement.quetzalcoatl_steps - 1)

    def _verify(self) -> None:
        """"he goes one step up every 20 Sacrifice points. Leftover sacrifice points are left
        in the urn for the next counting"."""
        if not self.verification_due():
            return
        per, opened = self.points_per_step(), self.verification
        steps = min(opened // per, self.edition.judgement.quetzalcoatl_steps - self.quetzalcoatl)
        self.quetzalcoatl += steps
        self.verification = opened - steps * per
        self._event(PUBLIC, "verification", opened=opened, steps=steps, quetzalcoatl=self.quetzalcoatl,
                    left=self.verification)

    def _end_turn(self) -> None:
        """15.3: Tezcatlipoca in the underworlds ends the game for everyone, and takes it when
        both gods reach their goal in the same turn; Quetzalcoatl at the gold temple opens his urn."""
        judgement = self.edition.judgement
        self.scores.append(self.turn_summary)
        self.completed.append(Milestone(self.round, JUDGEMENT, scored=True))
        if self.tezcatlipoca >= judgement.tezcatlipoca_steps:
            self._finish(destroyed=True)
        elif self.quetzalcoatl >= judgement.quetzalcoatl_steps:
            self._finish(destroyed=False)
        else:
            self.round += 1
            self.first = (self.first + 1) % self.n  # 6.0: the card passes to the left
            self._then("_start_turn")

    def _finish(self, destroyed: bool) -> None:
        if destroyed:  # "all the players lose ... there is no grading among the losers"
            self.final = Result(ranking=self.seats, scores={seat: 0 for seat in self.seats}, tie_break=LOST,
                                breakdown={seat: {"universe": "destroyed"} for seat in self.seats},
                                places={seat: 1 for seat in self.seats}, breakdown_key="judgement")
        else:
            keys = {s: (self.people[s].urn, len(self.assimilated & set(self.cities(s))), self.wealth(s))
                    for s in range(self.n)}
            ranking = sorted(range(self.n), key=lambda s: (tuple(-k for k in keys[s]), s))
            places = {self.seats[s]: 1 + sum(keys[o] > keys[s] for o in range(self.n)) for s in range(self.n)}
            self.final = Result(
                ranking=tuple(self.seats[s] for s in ranking),
                scores={self.seats[s]: keys[s][0] for s in range(self.n)}, tie_break=WIN_TIE_BREAK,
                breakdown={self.seats[s]: {"quetzalcoatl": keys[s][0], "assimilated": keys[s][1],
                                           "wealth": keys[s][2]} for s in range(self.n)},
                places=places, breakdown_key="judgement")
        self.phase = OVER
        self.owed = {}
        self._event(PUBLIC, "game-over", destroyed=destroyed, **self.final.to_json())
