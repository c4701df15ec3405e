"""Aztlán orders: small value types and the one text grammar every channel uses.

One order per line, case-insensitive; territories by number or unambiguous name.
    card 7
    place 12 [eagle 15] [move 3 to 4]
    battle 12 | coexist 12 | tlatoani 12 battle | tlatoani 12 coexist | tie 12
    sacred 12 | accept 12
    score [wild desert] [blessing mixcoatl]... [rafts 3 and 7]...
The grammar is documented in docs/orders.md.
"""
from __future__ import annotations

import re
from dataclasses import MISSING, dataclass, fields
from typing import TYPE_CHECKING, Any, Union

from engine.aztlan.board import TERRAIN_TYPES, BoardError
from engine.aztlan.cards import BLESSINGS
from engine.core import ParseError

if TYPE_CHECKING:
    from engine.aztlan.board import Board


@dataclass(frozen=True, slots=True)
class ChooseCard:
    number: int


@dataclass(frozen=True, slots=True)
class Turn:
    """A development turn: place a pawn, maybe an Eagle and Jaguar pawn, maybe move one pawn."""

    place: int
    eagle: int | None = None
    move: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Resolve:
    """Settle a conflict one has won (or won by playing a Great Tlatoani on a tie)."""

    territory: int
    choice: str  # "battle" or "coexist"
    tlatoani: bool = False


@dataclass(frozen=True, slots=True)
class LetTieStand:
    territory: int


@dataclass(frozen=True, slots=True)
class React:
    """A defeated seat's answer to a declared battle: play Sacred Games or accept."""

    territory: int
    sacred: bool


@dataclass(frozen=True, slots=True)
class Score:
    """A scoring turn: the wild card's type (None: the best one) and cards played."""

    wild: str | None = None
    blessings: tuple[str, ...] = ()
    rafts: tuple[tuple[int, int], ...] = ()


Order = Union[ChooseCard, Turn, Resolve, LetTieStand, React, Score]


def _fill_slots_directly(cls: type) -> None:
    """Give a frozen, slotted order class an __init__ that sets each slot through its
    descriptor: the same object in half the time of the generated one, which calls
    object.__setattr__ per field (a bot builds an order for every decision)."""
    namespace: dict[str, object] = {}
    params, body = [], []
    for f in fields(cls):
        namespace[f"set_{f.name}"] = getattr(cls, f.name).__set__
        if f.default is MISSING:
            params.append(f.name)
        else:
            namespace[f"default_{f.name}"] = f.default
            params.append(f"{f.name}=default_{f.name}")
        body.append(f"    set_{f.name}(self, {f.name})")
    exec(f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body), namespace)
    cls.__init__ = namespace["__init__"]  # type: ignore[misc]


for _kind in (ChooseCard, Turn, Resolve, LetTieStand, React, Score):
    _fill_slots_directly(_kind)


# Orders by value, for bots, which make one for every decision: an order is immutable, so one
# object serves every game (as parsed lines do), and a look-up costs about half of making a
# frozen dataclass (its __init__ sets each slot through a descriptor, some 3,000 machine
# instructions).  Bounded: a full table is emptied and fills again.
MADE_ORDERS = 65536
_made: dict[tuple[Any, ...], Order] = {}


def made(key: tuple[Any, ...]) -> Order:
    """The order `key[0](*key[1:])`, a kind followed by all its fields in order, made once.
    Keys compare by value, so give each field its declared type (True, not 1)."""
    order = _made.get(key)
    if order is None:
        if len(_made) >= MADE_ORDERS:
            _made.clear()
        order = _made[key] = key[0](*key[1:])
    return order


def to_text(order: Order) -> str:
    """The canonical text of an order, as game records store it."""
    if isinstance(order, ChooseCard):
        return f"card {order.number}"
    if isinstance(order, Turn):
        text = f"place {order.place}"
        if order.eagle is not None:
            text += f" eagle {order.eagle}"
        if order.move is not None:
            text += f" move {order.move[0]} to {order.move[1]}"
        return text
    if isinstance(order, Resolve):
        return (f"tlatoani {order.territory} {order.choice}" if order.tlatoani
                else f"{order.choice} {order.territory}")
    if isinstance(order, LetTieStand):
        return f"tie {order.territory}"
    if isinstance(order, React):
        return f"{'sacred' if order.sacred else 'accept'} {order.territory}"
    if isinstance(order, Score):
        parts = ["score"]
        if order.wild:
            parts.append(f"wild {order.wild}")
        parts.extend(f"blessing {god}" for god in order.blessings)
        parts.extend(f"rafts {a} and {b}" for a, b in order.rafts)
        return " ".join(parts)
    raise TypeError(f"not an Aztlán order: {order!r}")


VERBS = ("card", "place", "battle", "coexist", "tlatoani", "tie", "sacred", "accept", "score")
_TYPE_WORDS = {
    "desert": "desert", "deserts": "desert",
    "fields": "fields", "field": "fields", "terraced fields": "fields", "terraces": "fields",
    "jungle": "jungle", "jungles": "jungle",
    "mountains": "mountains", "mountain": "mountains", "volcano": "mountains",
    "volcanoes": "mountains", "mountains/volcanoes": "mountains",
    "city": "city", "cities": "city",
}
_GOD_WORDS = {"mixcoatl": "mixcoatl", "tepeyollotl": "tepeyollotl", "xipe-totec": "xipe-totec",
              "xipe totec": "xipe-totec", "xipe": "xipe-totec"}
_GOD_WORDS.update({kind: god for god, kind in BLESSINGS.items()})


def _tokens(line: str) -> list[str]:
    line = line.strip().lower().replace("->", " to ").replace(">", " to ")
    line = re.sub(r"(?<=\d)\s*-\s*(?=\d)", " to ", line)  # "3-4" is a move, "xipe-totec" a name
    return [token for token in re.split(r"[\s,;]+", line) if token]


class _Line:
    """A cursor over one line's tokens, with errors that quote the line."""

    def __init__(self, line: str, board: "Board"):
        self.text = line.strip()
        self.tokens = _tokens(line)
        self.at = 0
        self.board = board

    def error(self, expected: str, found: str | None = None) -> ParseError:
        found = found if found is not None else (
            f"'{self.tokens[self.at]}'" if self.at < len(self.tokens) else "the end of the line")
        return ParseError(f"{self.text!r}: expected {expected}, found {found}",
                          line=self.text, expected=expected)

    def done(self) -> bool:
        return self.at >= len(self.tokens)

    def peek(self) -> str | None:
        return None if self.done() else self.tokens[self.at]

    def take(self, *words: str) -> bool:
        if self.peek() in words:
            self.at += 1
            return True
        return False

    def territory(self, stop: tuple[str, ...] = ()) -> int:
        """A territory reference: the run of tokens up to the next keyword in `stop`.

        Names may have several words, so the whole run is tried first; if it names
        nothing, the longest leading part that does is taken and the rest is left for
        the caller to complain about ("battle 12 now": the end of the line was expected).
        """
        start = self.at
        while not self.done() and self.tokens[self.at] not in stop:
            self.at += 1
        if self.at == start:
            raise self.error("a territory (number or name)")
        try:
            return self._resolve(" ".join(self.tokens[start:self.at]))
        except ParseError:
            for end in range(self.at - 1, start, -1):
                try:
                    found = self._resolve(" ".join(self.tokens[start:end]))
                except ParseError:
                    continue
                self.at = end
                return found
            raise

    def _resolve(self, ref: str) -> int:
        try:
            return self.board.territories[self.board.territory(ref)].id
        except BoardError as error:
            raise ParseError(f"{self.text!r}: {error}", line=self.text,
                             expected="a territory (number or name)") from None

    def territory_pair(self, stop: tuple[str, ...]) -> tuple[int, int]:
        """Two territories joined by 'to'/'and', or two single tokens side by side."""
        start = self.at
        while not self.done() and self.tokens[self.at] not in stop:
            self.at += 1
        run = self.tokens[start:self.at]
        for joiner in ("to", "and"):
            if joiner in run:
                cut = run.index(joiner)
                if 0 < cut < len(run) - 1:
                    return (self._resolve(" ".join(run[:cut])), self._resolve(" ".join(run[cut + 1:])))
        if len(run) == 2:
            return self._resolve(run[0]), self._resolve(run[1])
        raise self.error("two territories, as in '3 to 7' or '3 and 7'",
                         found=f"'{' '.join(run)}'" if run else "the end of the line")

    def word(self, table: dict[str, str], expected: str) -> str:
        for size in (2, 1):  # two-word names first: "terraced fields", "xipe totec"
            phrase = " ".join(self.tokens[self.at:self.at + size])
            if len(self.tokens) - self.at >= size and phrase in table:
                self.at += size
                return table[phrase]
        raise self.error(expected)


# Lines exactly as to_text writes them (records hold nothing else): read with one pattern,
# to the same orders parse_line gives.  Anything else, or a number that is no territory,
# goes through the whole grammar (and its errors).
_ID = "([0-9]{1,5})"
_CANONICAL = re.compile(rf"card ([0-9]{{1,2}})|place {_ID}(?: eagle {_ID})?(?: move {_ID} to {_ID})?"
                        rf"|(battle|coexist|tie|sacred|accept) {_ID}|tlatoani {_ID} (battle|coexist)|score")


def _canonical(line: str, board: "Board") -> Order | None:
    match = _CANONICAL.fullmatch(line)
    if match is None:
        return None
    card, place, eagle, start, end, verb, territory, tlatoani, choice = match.groups()
    ids = board.index_of
    if card is not None:
        return ChooseCard(int(card))
    if place is not None:
        refs = [int(ref) for ref in (place, eagle, start, end) if ref is not None]
        if not all(ref in ids for ref in refs):
            return None
        return Turn(int(place), int(eagle) if eagle is not None else None,
                    (int(start), int(end)) if start is not None else None)
    if verb is not None or tlatoani is not None:
        ident = int(territory if verb is not None else tlatoani)
        if ident not in ids:
            return None
        if verb is None:
            return Resolve(ident, choice, tlatoani=True)
        if verb in ("battle", "coexist"):
            return Resolve(ident, verb)
        return LetTieStand(ident) if verb == "tie" else React(ident, verb == "sacred")
    return Score()


def parse_line(line: str, board: "Board") -> Order:
    """Parse one order line; raise ParseError saying what was expected."""
    cur = _Line(line, board)
    verb = cur.peek()
    if verb is None:
        raise cur.error(f"an order ({', '.join(VERBS)})")
    cur.at += 1
    if verb in ("card", "power"):
        number = cur.peek()
        if number is None or not number.isdigit() or len(number) > 2:
            raise cur.error("a power card number, as in 'card 7'")
        cur.at += 1
        order: Order = ChooseCard(int(number))
    elif verb == "place":
        place = cur.territory(("eagle", "move"))
        eagle = move = None
        while not cur.done():
            if eagle is None and cur.take("eagle"):
                eagle = cur.territory(("move",))
            elif move is None and cur.take("move"):
                move = cur.territory_pair(("eagle", "move"))
            elif cur.peek() in ("eagle", "move"):
                raise cur.error(f"the end of the line (one '{cur.peek()}' per turn)")
            else:
                raise cur.error("'eagle <territory>' or 'move <territory> to <territory>'")
        order = Turn(place, eagle, move)
    elif verb in ("battle", "coexist"):
        order = Resolve(cur.territory(), verb)
    elif verb == "tlatoani":
        territory = cur.territory(("battle", "coexist"))
        choice = cur.peek()
        if choice not in ("battle", "coexist"):
            raise cur.error("'battle' or 'coexist' after the territory, as in 'tlatoani 12 battle'")
        cur.at += 1
        order = Resolve(territory, choice, tlatoani=True)
    elif verb == "tie":
        order = LetTieStand(cur.territory())
    elif verb in ("sacred", "accept"):
        order = React(cur.territory(), verb == "sacred")
    elif verb == "score":
        order = _score(cur)
    else:
        raise cur.error(f"an order ({', '.join(VERBS)})", found=f"'{verb}'")
    if not cur.done():
        raise cur.error("the end of the line")
    return order


def _score(cur: _Line) -> Score:
    clauses = ("wild", "blessing", "rafts")
    wild = None
    blessings: list[str] = []
    rafts: list[tuple[int, int]] = []
    while not cur.done():
        if wild is None and cur.take("wild"):
            wild = cur.word(_TYPE_WORDS, f"a territory type ({', '.join(TERRAIN_TYPES)})")
        elif cur.take("blessing"):
            blessings.append(cur.word(_GOD_WORDS, "mixcoatl, tepeyollotl or xipe-totec"))
        elif cur.take("rafts"):
            rafts.append(cur.territory_pair(clauses))
        else:
            raise cur.error("'wild <type>', 'blessing <god>' or 'rafts <territory> and <territory>'")
    return Score(wild, tuple(blessings), tuple(rafts))


MAX_LINES = 200
# Parsed lines per board: a replay parses every line of a record again, and the same lines
# recur (card 5, accept 12), so each distinct line is parsed once.  Orders are immutable, so
# one object serves every game.  Bounded: a full table is emptied and fills again.
CACHED_BOARDS = 64
CACHED_LINES = 4096
_parsed: dict[int, tuple["Board", dict[str, Order]]] = {}


def _parsed_lines(board: "Board") -> dict[str, Order]:
    """The parsed lines of this board object (held, so its id is not reused meanwhile)."""
    entry = _parsed.get(id(board))
    if entry is None or entry[0] is not board:
        if len(_parsed) >= CACHED_BOARDS:
            _parsed.clear()
        entry = _parsed[id(board)] = (board, {})
    return entry[1]


def parse_orders(text: str, board: "Board") -> list[Order]:
    """Parse a submission: one order per line; blank lines and '#' comments are skipped."""
    orders: list[Order] = []
    known = _parsed_lines(board)
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if len(orders) >= MAX_LINES:
            raise ParseError(f"at most {MAX_LINES} orders in one submission", line=line,
                             expected="fewer orders")
        order = known.get(line)
        if order is None:
            try:
                order = _canonical(line, board) or parse_line(line, board)
            except ParseError as error:
                raise ParseError(f"line {number}: {error}", line=error.line,
                                 expected=error.expected) from None
            if len(known) >= CACHED_LINES:
                known.clear()
            known[line] = order
        orders.append(order)
    return orders
