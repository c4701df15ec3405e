"""Cóatl's bots.  Each reads only its seat's view (public facts plus its own hand and temple
cards; `views.bot_view`, the parts of it they use) and checks its assemblies with the same Workshop the rules use.

- `random`: any legal order, for tests.
- `heuristic`: plans cóatls for the prophecies it holds and the temples it may fulfil: it
  completes a cóatl once one worth enough can be built from its board, takes the pieces that
  raise what its board could build, and keeps its hand at three or more prophecies.
"""
from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any, Iterable

from engine.coatl.assembly import Coatl, Rules, Workshop, coatl_from_json
from engine.coatl.components import KINDS
from engine.coatl.orders import (Add, Assemble, Choose, Complete, Fulfil, Keep, New, Order, Sacrifice, Step,
                                 Take)
from engine.coatl.requirements import COLOURS
from engine.coatl.views import bot_view
from engine.core import IllegalOrderError

BEAM = 8  # candidate body sequences kept per length by the heuristic's search


class Seat:
    """What one seat knows, read from its view."""

    def __init__(self, state: Any, s: int):
        view = bot_view(state, s)
        self.view = view
        self.rules: Rules = state.rules  # the components and options: public
        me = view["me"]
        mine = view["seat"]
        self.kind = me["decisions"][0]["kind"]
        self.options = me["decisions"][0]["options"]
        self.hand: list[int] = me["hand"]
        self.temples: list[int] = me["temples"]
        self.dealt: list[int] = me["dealt"]
        self.board = [(COLOURS[colour], kind) for colour, kind in (text.split() for text in mine["board"])]
        self.coatls: list[Coatl] = [coatl_from_json(data) for data in mine["coatls"]]
        self.tokens: list[str] = mine["tokens"]
        self.commons: list[int] = view["commons"]
        self.row: list[int] = view["row"]
        self.supply = view["supply"]
        self.bags = view["bags"]
        self.limits = self.rules.limits
        self.room = self.rules.pieces.board - len(self.board)
        self.hand_room = self.limits["hand"] - len(self.hand)
        self.ending = view["trigger"] is not None

    def workshop(self) -> Workshop:
        return Workshop(self.rules, self.board, self.hand, self.temples, self.commons, self.coatls)

    def legal(self, steps: Iterable[Step]) -> bool:
        try:
            self.workshop().run(list(steps))
        except IllegalOrderError:
            return False
        return True

    def takes(self) -> list[Take]:
        return [Take(kind, space) for kind, spaces in self.options["take"].items() for space in spaces]

    def sacrifices(self) -> list[Sacrifice]:
        per_space = self.rules.pieces.bodies_per_space
        found: list[Sacrifice] = []
        for token in self.tokens:
            if token == "pick":
                found += [Sacrifice("pick", kind=kind) for kind in KINDS
                          if self.bags[kind] >= (per_space if kind == "body" else 1)
                          and self.room >= (per_space if kind == "body" else 1)]
            elif token == "commit":
                found += [Sacrifice("commit", temple=temple) for temple in self.commons]
            else:
                found.append(Sacrifice("future"))
        return found


class RandomBot:
    name = "random"

    def __init__(self, seed: int | str = 0):
        self.rng = random.Random(f"{seed}:coatl-random")

    def order(self, state: Any, s: int) -> Order:
        seat = Seat(state, s)
        rng = self.rng
        if seat.kind == "keep":
            return Keep(tuple(sorted(rng.sample(seat.dealt, rng.randint(0, min(seat.limits["keep"], len(seat.dealt)))))))
        if seat.kind == "choose":
            return self._choose(seat, follow_up=True)
        actions: list[Order] = list(seat.takes()) + seat.sacrifices()
        if seat.hand_room and (seat.row or seat.options["choose"]["deck"]):
            actions.append(self._choose(seat, follow_up=False))
        actions.append(self._assemble(seat))
        return rng.choice(actions)

    def _choose(self, seat: Seat, follow_up: bool) -> Choose:
        rng = self.rng
        hand = list(seat.hand)
        discard: tuple[int, ...] = ()
        if follow_up and hand and (rng.random() < 0.3 or len(hand) >= seat.limits["hand"]):
            discard = tuple(rng.sample(hand, rng.randint(1, len(hand))))
        room = seat.limits["hand"] - len(hand) + len(discard)
        row = list(seat.row)
        deck_left = seat.options["deck"] if follow_up else seat.options["choose"]["deck"]
        deck_left += len(discard)
        if room == 0 or not (row or deck_left):
            return Choose((), 0, discard)
        count = rng.randint(1, room)
        cards = tuple(rng.sample(row, min(len(row), rng.randint(0, count))))
        deck = min(deck_left, count - len(cards))
        if not cards and not deck:
            cards = (rng.choice(row),) if row else ()
            deck = 0 if row else 1
        return Choose(cards, deck, discard)

    def _assemble(self, seat: Seat) -> Assemble:
        """A random walk of legal steps; a step that closes a cóatl is taken only if the cóatl
        can then be completed, and is followed by its completion."""
        rng = self.rng
        shop = seat.workshop()
        steps: list[Step] = []
        for _ in range(rng.randint(0, 6)):
            candidates = _steps(shop)
            rng.shuffle(candidates)
            before = shop.copy()  # to undo a step that closes a cóatl it cannot complete
            for step in candidates:
                try:
                    shop.step(step)  # an illegal step raises and changes nothing
                except IllegalOrderError:
                    continue
                try:
                    closing = _finish_random(shop, rng) if shop.awaiting is not None else []
                except IllegalOrderError:
                    shop, before = before, before.copy()
                    continue
                steps += [step, *closing]
                break
        return Assemble(tuple(steps))


# The candidate steps are few distinct values, made again at every decision: made once each.
_new_step, _add_step, _fulfil_step = (lru_cache(maxsize=None)(kind) for kind in (New, Add, Fulfil))


def _steps(shop: Workshop) -> list[Step]:
    """Candidate assembly steps (not all legal)."""
    pieces = sorted(set(shop.board))
    found: list[Step] = [_new_step(colour, kind) for colour, kind in pieces]
    cards = sorted(set(shop.hand))
    for number in shop.unfinished():
        found += [_add_step(colour, kind, number, front) for colour, kind in pieces
                  for front in ((False, True) if kind == "body" else (False,))]
        found += [_fulfil_step((card,), number) for card in cards]
    return found


def _finish_random(shop: Workshop, rng: random.Random) -> list[Step]:
    """Steps that complete the cóatl just closed: some fulfilled prophecies and a temple."""
    number = shop.awaiting
    assert number is not None
    coatl = shop.coatls[number - 1]
    letters, most = coatl.letters, shop.rules.limits["prophecies_per_coatl"]
    steps: list[Step] = []
    cards = sorted(set(shop.hand))
    rng.shuffle(cards)
    for card in cards:
        if len(coatl.prophecies) >= most:
            break
        if (not coatl.prophecies or rng.random() < 0.5) and card not in coatl.prophecies \
                and shop.rules.satisfies(card, letters, True, True):
            step = _fulfil_step((card,), number)
            shop.step(step)
            steps.append(step)
    able = shop.able_temples(letters)
    temple = rng.choice(able) if able and (shop.rules.temple_if_able or rng.random() < 0.5) else None
    step = Complete(number, temple)
    shop.step(step)
    return [*steps, step]


# ---- the heuristic --------------------------------------------------------------------------

class Planner:
    """Values cóatls for one seat's prophecies and temples."""

    def __init__(self, seat: Seat):
        self.rules = seat.rules
        self.hand = sorted(set(seat.hand))
        self.temples = sorted(set(seat.temples) | set(seat.commons))
        self.most = seat.limits["prophecies_per_coatl"]

    def finished(self, letters: str, fixed: tuple[int, ...] = ()) -> tuple[int, tuple[int, ...], int | None]:
        """A finished cóatl's best points: the prophecies to fulfil and the temple."""
        rules = self.rules
        points = sum(rules.prophecy_points(card, letters) for card in fixed)
        extra = sorted(((rules.prophecy_points(card, letters), card) for card in self.hand if card not in fixed),
                       reverse=True)[:self.most - len(fixed)]
        chosen = tuple(card for value, card in extra if value > 0)
        if not fixed and not chosen:
            return 0, (), None
        temple = max(self.temples, key=lambda t: rules.temple_points(t, letters), default=None)
        bonus = rules.temple_points(temple, letters) if temple is not None else 0
        return (points + sum(value for value, _ in extra if value > 0) + bonus, chosen,
                temple if bonus else None)

    def potential(self, letters: str) -> int:
        """What a cóatl under way promises: its prophecies' points with both ends still open."""
        rules = self.rules
        values = sorted((rules.prophecies[card].points(rules.times(card, letters, False, False))
                         for card in self.hand), reverse=True)
        return sum(values[:self.most])

    def bodies(self, prefix: str, available: Counter, suffixes: Iterable[str]) -> tuple[int, str, str]:
        """The best body sequence from `available` between `prefix` and one of `suffixes`:
        (points, bodies, suffix); a beam search over lengths."""
        suffixes = sorted(set(suffixes))
        best: tuple[int, str, str] = (0, "", "")
        beam = [""]
        for _ in range(sum(available.values())):
            grown: dict[str, int] = {}
            for bodies in beam:
                left = available - Counter(bodies)
                for colour in left:
                    candidate = bodies + colour
                    if candidate in grown:
                        continue
                    grown[candidate] = self.potential(prefix + candidate)
                    for suffix in suffixes:
                        points = self.finished(prefix + candidate + suffix)[0]
                        if points > best[0]:
                            best = (points, candidate, suffix)
            if not grown:
                break
            beam = sorted(grown, key=lambda b: (-grown[b], b))[:BEAM]
        return best


class HeuristicBot:
    name = "heuristic"

    def __init__(self, seed: int | str = 0):
        self.rng = random.Random(f"{seed}:coatl-heuristic")

    def order(self, state: Any, s: int) -> Order:
        seat = Seat(state, s)
        if seat.kind == "keep":
            return Keep(tuple(sorted(sorted(seat.dealt, key=lambda c: (-_ease(seat.rules, c), c))[:seat.limits["keep"]])))
        if seat.kind == "choose":
            return self._choose(seat, follow_up=True) or Choose()
        planner = Planner(seat)
        plan = self._best_completion(seat, planner)
        threshold = 1 if seat.ending or seat.room <= 1 else 9 + 2 * len([c for c in seat.coatls if c.complete])
        if plan and plan[0] >= threshold and seat.legal(plan[1]):
            return Assemble(tuple(plan[1]))
        if len(seat.hand) < 3 and seat.hand_room:
            choice = self._choose(seat, follow_up=False)
            if choice:
                return choice
        take = self._take(seat, planner)
        if take:
            return take
        if plan and seat.legal(plan[1]):
            return Assemble(tuple(plan[1]))
        pick = self._perfect_pick(seat)
        if pick:
            return pick
        if seat.hand_room:
            choice = self._choose(seat, follow_up=False)
            if choice:
                return choice
        partial = self._partial(seat, planner)
        if partial and seat.legal(partial):
            return Assemble(tuple(partial))
        return Sacrifice("future") if "future" in seat.tokens else Assemble(())

    def _best_completion(self, seat: Seat, planner: Planner) -> tuple[int, list[Step]] | None:
        board = Counter(seat.board)
        bodies = Counter({colour: n for (colour, kind), n in board.items() if kind == "body"})
        heads = sorted({colour for colour, kind in board if kind == "head"})
        tails = sorted({colour for colour, kind in board if kind == "tail"})
        if not tails:
            return None
        best: tuple[int, list[Step]] | None = None
        options: list[tuple[int | None, str, tuple[int, ...]]] = []
        for number, coatl in enumerate(seat.coatls, start=1):
            if not coatl.complete and coatl.head and not coatl.tail:
                options.append((number, coatl.letters, tuple(coatl.prophecies)))
        if len([c for c in seat.coatls if not c.complete]) < seat.limits["unfinished"] \
                and len(seat.coatls) < seat.limits["coatls"]:
            options += [(None, head, ()) for head in heads]
        for number, prefix, fixed in options:
            points, chain, tail = planner.bodies(prefix, bodies, tails)
            if not chain:
                continue
            letters = prefix + chain + tail
            total, cards, temple = planner.finished(letters, fixed)
            if not fixed and not cards:
                continue
            if best is None or total > best[0]:
                steps: list[Step] = []
                if number is None:
                    number = len(seat.coatls) + 1
                    steps.append(New(prefix, "head"))
                steps += [Add(colour, "body", number) for colour in chain]
                steps.append(Add(tail, "tail", number))
                if cards:
                    steps.append(Fulfil(cards, number))
                steps.append(Complete(number, temple))
                best = (total, steps)
        return best

    def _missing(self, seat: Seat) -> list[str]:
        """The head and tail the board lacks for its next cóatl."""
        kinds = {kind for _, kind in seat.board}
        building = any(c.head and not c.complete for c in seat.coatls)
        return [kind for kind in ("head", "tail") if kind not in kinds and not (kind == "head" and building)]

    def _perfect_pick(self, seat: Seat) -> Sacrifice | None:
        for kind in self._missing(seat):
            if Sacrifice("pick", kind=kind) in seat.sacrifices() and not seat.options["take"][kind]:
                return Sacrifice("pick", kind=kind)
        return None

    def _take(self, seat: Seat, planner: Planner) -> Take | None:
        scored = []
        missing = self._missing(seat)
        for take in seat.takes():
            content = seat.supply[take.kind][take.space - 1]
            if take.kind not in missing and seat.room - len(content) < len(missing):
                continue  # keep room for the head and tail still missing
            pieces = [(COLOURS[text.split()[0]], take.kind) for text in content]
            board = seat.board + pieces
            value = _promise(planner, board)
            scored.append((value, take.kind == "body", -take.space, take))
        if not scored:
            return None
        return max(scored, key=lambda item: item[:3])[3]

    def _choose(self, seat: Seat, follow_up: bool) -> Choose | None:
        room = seat.limits["hand"] - len(seat.hand)
        if follow_up and room == 0 and seat.hand:
            worst = min(seat.hand, key=lambda c: (_ease(seat.rules, c), c))
            pick = self._pick(seat, 1)
            return Choose(pick or (), 0 if pick else 1, (worst,))
        want = max(1, min(room, 3 - len(seat.hand)))
        if room == 0:
            return None
        pick = self._pick(seat, want)
        deck = want - len(pick)
        available = seat.options["deck"] if follow_up else seat.options["choose"]["deck"]
        deck = min(deck, available)
        if not pick and not deck:
            return None
        return Choose(pick, deck)

    def _pick(self, seat: Seat, want: int) -> tuple[int, ...]:
        board = seat.board
        ranked = sorted(seat.row, key=lambda c: (-_fit(seat.rules, c, board), -_ease(seat.rules, c), c))
        picks = [card for card in ranked if _ease(seat.rules, card) >= 0.5 and card not in seat.hand]
        return tuple(dict.fromkeys(picks))[:want]

    def _partial(self, seat: Seat, planner: Planner) -> list[Step]:
        """Free room on a full board: begin a cóatl with a head and the bodies that promise most."""
        heads = sorted({colour for colour, kind in seat.board if kind == "head"})
        if not heads or len([c for c in seat.coatls if not c.complete]) >= seat.limits["unfinished"] \
                or len(seat.coatls) >= seat.limits["coatls"]:
            return []
        bodies = Counter(colour for colour, kind in seat.board if kind == "body")
        head = heads[0]
        _, chain, _ = planner.bodies(head, bodies, COLOURS.values())
        number = len(seat.coatls) + 1
        return [New(head, "head"), *(Add(colour, "body", number) for colour in chain[:3])]


def _promise(planner: Planner, board: list[tuple[str, str]]) -> int:
    """What a board could build: the best body sequence's promise, and a head and a tail."""
    bodies = Counter(colour for colour, kind in board if kind == "body")
    points, _, _ = planner.bodies("", bodies, [""])
    has = {kind for _, kind in board}
    return points * 2 + 3 * ("head" in has) + 3 * ("tail" in has) + len(board)


def _ease(rules: Rules, card: int) -> float:
    """Points at a card's first level per piece it needs at least."""
    prophecy = rules.prophecies[card]
    requirement = prophecy.requirement
    pieces = prophecy.minimum if requirement.kind == "count" else sum(
        max(element.least, 0) for element in requirement.elements if not element.absent)
    return prophecy.levels[0][1] / max(pieces, 1)


def _fit(rules: Rules, card: int, board: list[tuple[str, str]]) -> int:
    """How many of the colours a card names are on the board."""
    requirement = rules.prophecies[card].requirement
    letters = {requirement.letters} if requirement.kind == "count" else {
        element.letters for element in requirement.elements if element.letters and not element.absent}
    return sum(colour in letters for colour, _ in board)


BOTS = {bot.name: bot for bot in (RandomBot, HeuristicBot)}
