"""Playing Azteca cards (8.0): "Cards can be played during a player's turn or during the turn of
another player, but always during the specified phase. It is forbidden to play twice the same
card consecutively, except Raid cards."

A card's phase, effect kind and number are data (engine/azteca/data/edition.json); each effect
kind is one function in EFFECTS.  A play (`play CARD [TARGET]`) never answers a decision: a seat
adds it to whatever decision it owes, so no mail is sent to ask for cards.  It is played at once
when it is given in the card's phase during the seat's own question in turn; given with a
secret answer it stays secret until the answers are revealed; given earlier in the turn it waits,
secret, for the start of the card's phase; a Flower War card for one battle
(engine/azteca/war_cards.py) waits, secret, for the next battle on the region it names.
Readings: docs/rules-azteca.md, "Playing cards".

A part of AztecaState (engine/azteca/state.py), which holds the hands, the discards and the
asking and event machinery.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable

from engine.azteca import war_cards
from engine.azteca.components import AztecaCard
from engine.azteca.orders import Play
from engine.azteca.turn import PHASES, PUBLIC, SIMULTANEOUS
from engine.core import IllegalOrderError

BATTLE_QUESTIONS = ("join", "fight")  # a lake battle announced or under way


@dataclass(frozen=True)
class Effect:
    targets: Callable[[Any, int], list[str]]  # what the play may name after the card ([""]: nothing)
    run: Callable[[Any, int, AztecaCard, str], None]
    # A Flower War card that waits for a battle on the region it names: whether seat s's play
    # joins the battle about to begin there (None: played when its phase comes).
    joins: Callable[[Any, int], bool] | None = None


def _no_target(state: Any, s: int) -> list[str]:
    return [""]


def _calm_lakes(state: Any, s: int) -> list[str]:
    """A storm falls on any lake zone, but not on a lake battle announced or under way."""
    if state.owed.get(s) in BATTLE_QUESTIONS:
        return []
    return [str(lake.number) for lake in state.geo.lakes()]


def _tributes(state: Any, s: int, card: AztecaCard, target: str) -> None:
    """Tlaloc (9.0: "the 'Tlaloc' card also allow a player to gather additional Tributes")."""
    state.people[s].tributes += card.amount
    state._event(PUBLIC, "card-tributes", seat=state.seats[s], tributes=card.amount)


def _boon(state: Any, s: int, card: AztecaCard, target: str) -> None:
    """An effect a later step of the phase reads (a free mission, points added to an offer)."""
    boons = state.people[s].boons
    boons[card.effect] = boons.get(card.effect, 0) + card.amount


def _storm(state: Any, s: int, card: AztecaCard, target: str) -> None:
    """Chalchiuhtlicue: every player with boats in the zone loses some (back to his stock)."""
    zone = state.zone_key(int(target))
    lost = {}
    for o, count in sorted(state.boats_in(zone).items()):
        person = state.people[o]
        lost[state.seats[o]] = min(count, card.amount)
        person.boats[zone] = count - lost[state.seats[o]]
        person.boats = {where: n for where, n in person.boats.items() if n}
    state._event(PUBLIC, "storm", zone=zone, lost=lost)
    if "attack" in state.owed.values():  # the attacks left may be gone with the boats: asked anew
        state.owed = {}
        state._ask_attack()


EFFECTS: dict[str, Effect] = {
    "tributes": Effect(_no_target, _tributes), "free-mission": Effect(_no_target, _boon),
    "offering": Effect(_no_target, _boon), "storm": Effect(_calm_lakes, _storm),
    "spy": Effect(war_cards.enemy_boxes, war_cards.spy),
    "catastrophe": Effect(war_cards.battlefields, war_cards.catastrophe),
    "reinforcements": Effect(war_cards.neutral_lands, war_cards.reinforce, war_cards.neutral_attacked),
    "heroic": Effect(war_cards.battlefields, war_cards.heroic, war_cards.fights_here),
    "yellow-dice": Effect(war_cards.battlefields, war_cards.yellow_dice, war_cards.fights_here)}


class CardPlays:
    people: Any
    seats: tuple[str, ...]
    edition: Any
    phase: str

    def phase_number(self) -> int:
        """The phase under way, 1-8 (0 in setup or when the game is over)."""
        return PHASES.index(self.phase) + 1 if self.phase in PHASES else 0

    def repeated(self, s: int, plays: list[Play]) -> str | None:
        """8.0: the card played twice in a row if seat s played its last card and then `plays`
        (in the order their phases come), or None."""
        ordered = sorted(plays, key=lambda play: self.edition.card(play.card).phase)
        chain = [self.people[s].last_card, *(play.card for play in ordered)]
        return next((b for a, b in zip(chain, chain[1:]) if a == b and not self.edition.card(b).repeatable), None)

    def playable(self, s: int) -> dict[str, list[str]]:
        """Cards seat s may play now (private), each with the targets it may name."""
        person, now = self.people[s], self.phase_number()
        held, waiting = Counter(person.hand), Counter(play.card for play in person.plays)
        options = {}
        for key in sorted(held):
            card = self.edition.card(key)
            effect = EFFECTS.get(card.effect)
            if effect is None or not now or card.phase < now or held[key] <= waiting[key]:
                continue
            targets = [t for t in effect.targets(self, s) if not self.repeated(s, [*person.plays, Play(key, t)])]
            if targets:
                options[key] = targets
        return options

    def check_play(self, s: int, play: Play) -> None:
        """Raise IllegalOrderError, naming the rule, unless seat s may play this card now."""
        person = self.people[s]
        if play.card not in person.hand:
            raise IllegalOrderError(f"you hold no {play.card} (your hand: {', '.join(sorted(person.hand)) or 'empty'})")
        card = self.edition.card(play.card)
        if card.effect not in EFFECTS:
            raise IllegalOrderError(f"{card.name} is played in phase {card.phase} by that phase's own orders")
        if card.phase < self.phase_number():
            raise IllegalOrderError(f"{card.name} is played in phase {card.phase}, which is over this turn "
                                    f"(8.0: 'always during the specified phase')")
        if person.hand.count(play.card) <= sum(p.card == play.card for p in person.plays):
            raise IllegalOrderError(f"every {card.name} you hold is already played")
        if self.repeated(s, [*person.plays, play]):
            raise IllegalOrderError(f"8.0: 'It is forbidden to play twice the same card consecutively': "
                                    f"{card.name} would follow {card.name}")
        targets = EFFECTS[card.effect].targets(self, s)
        if play.target not in targets:
            named = ", ".join(t for t in targets if t)
            wanted = f"names one of {named}" if named else "names nothing" if targets else "cannot be played now"
            raise IllegalOrderError(f"{card.name} {wanted}, not {play.target or 'nothing'}")

    def waits_for_battle(self, play: Play) -> bool:
        return EFFECTS[self.edition.card(play.card).effect].joins is not None

    def _give_play(self, s: int, play: Play) -> None:
        """The play waits, secret, unless it is the card's phase and seat s answers in turn (a
        card for a battle waits for the battle)."""
        self.people[s].plays.append(play)
        if self.edition.card(play.card).phase == self.phase_number() and self.owed[s] not in SIMULTANEOUS:
            self._play_cards([s])

    def _play_cards(self, seats: list[int] | None = None) -> None:
        """Every waiting play of the phase under way, in turn order (the start of a phase, the
        reveal of secret answers)."""
        now = self.phase_number()
        for s in self.turn_order() if seats is None else seats:
            person = self.people[s]
            due = [play for play in person.plays
                   if self.edition.card(play.card).phase == now and not self.waits_for_battle(play)]
            person.plays = [play for play in person.plays if play not in due]
            for play in due:
                self._play_card(s, play)

    def _play_card(self, s: int, play: Play) -> None:
        """The card is shown, discarded and its effect carried out; a play the seat can no longer
        make (the card discarded meanwhile, a storm on a zone now at war) is dropped, privately."""
        person, card = self.people[s], self.edition.card(play.card)
        if (play.card not in person.hand or self.repeated(s, [play])
                or play.target not in EFFECTS[card.effect].targets(self, s)):
            self._event(s, "my-play-dropped", card=play.card)
            return
        person.hand.remove(play.card)
        self.discards.append(play.card)
        person.last_card = play.card
        self._event(PUBLIC, "card-played", seat=self.seats[s], card=play.card, target=play.target)
        EFFECTS[card.effect].run(self, s, card, play.target)

    def _play_battle_cards(self, at: str) -> None:
        """A battle begins on `at`: the waiting plays naming it that may join it are played, in
        turn order; the others keep waiting (engine/azteca/war_cards.py)."""
        for s in self.turn_order():
            person = self.people[s]
            due = [play for play in person.plays if play.target == at and self.waits_for_battle(play)
                   and EFFECTS[self.edition.card(play.card).effect].joins(self, s)]  # type: ignore[misc]
            person.plays = [play for play in person.plays if play not in due]
            for play in due:
                self._play_card(s, play)

    def _drop_plays(self, phase: int) -> None:
        """Plays still waiting when their phase ends (no battle came) lapse; the card stays in
        the hand and only its seat is told."""
        for s, person in enumerate(self.people):
            for play in [play for play in person.plays if self.edition.card(play.card).phase == phase]:
                person.plays.remove(play)
                self._event(s, "my-play-dropped", card=play.card)

    def boon(self, s: int, effect: str) -> int:
        return self.people[s].boons.get(effect, 0)

    def _new_card_turn(self) -> None:
        for person in self.people:
            person.boons = {}
            person.plays = []


__all__ = ["EFFECTS", "CardPlays", "Effect"]
