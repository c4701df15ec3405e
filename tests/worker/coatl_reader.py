"""A person who plays Cóatl from the words of its mails alone: the answers to STATUS, BOARD
and HAND (pbem/games/coatl/text.py), never the database nor the engine.

Their simple strategy, one action at a time: complete a cóatl from the pieces on their board
when one meets a prophecy in their hand; otherwise take pieces (a head, a tail, then bodies)
while the board has room; otherwise choose a prophecy while the hand has room; otherwise
pass.  With two actions left (a final turn) they write both in one mail, the second planned
on the board the first leaves them.  What a card asks is read from its words ("each red
piece; 2 points for 3, ...", "in a row: green, one or more red, black; ..."), which is the
point: if the words do not say enough, these people cannot play.
"""
from __future__ import annotations

import copy
import itertools
import re
from dataclasses import dataclass, field

LETTERS = {"yellow": "Y", "red": "R", "black": "K", "green": "G", "blue": "B"}
KINDS = ("head", "tail", "body")
BOARD_ROOM = 8  # a player board holds 8 pieces (the rule book; HAND and BOARD show what is on it)
HAND_ROOM = 5


class Unreadable(AssertionError):
    """A mail said something these people cannot read: a finding about the mail's words."""


@dataclass(frozen=True)
class Card:
    number: int
    asks: str  # the requirement in words
    least: int  # how often (a count: how many pieces) it must be met to be fulfilled

    def times(self, letters: str) -> int:
        """How often a finished cóatl of these letters (head to tail) meets the card."""
        return _times(self.asks, letters)


@dataclass(frozen=True)
class Temple:
    number: int
    conditions: tuple[str, ...]

    def met(self, letters: str) -> bool:
        return any(_times(condition, letters) > 0 for condition in self.conditions)


@dataclass
class Position:
    """What one round of STATUS, BOARD and HAND answers told."""
    asked: str  # the kind asked of the reader: "keep", "turn", "" (nothing)
    actions: int  # actions left to the reader now
    supply: dict[str, dict[int, list[str]]] = field(default_factory=dict)  # kind -> space -> letters
    row: list[Card] = field(default_factory=list)  # face-up prophecies
    deck: int = 0
    commons: list[Temple] = field(default_factory=list)
    board: dict[str, list[str]] = field(default_factory=dict)  # kind -> letters on my board
    coatls: int = 0  # cóatls begun (hers are always completed in the action that begins them)
    hand: list[Card] = field(default_factory=list)
    draw: list[Card] = field(default_factory=list)  # setup: the cards to keep from
    temples: list[Temple] = field(default_factory=list)  # my own


# ---- reading the words ---------------------------------------------------------------------------

def _colour(word: str) -> str:
    if word not in LETTERS:
        raise Unreadable(f"not a colour: {word!r}")
    return LETTERS[word]


def _element(words: str) -> str:
    """One element of "in a row: ..." as a regular expression over letters padded by '#'
    (an end of the cóatl), as the rule book's pictures read."""
    if words.startswith("no "):
        return f"[^{_colour(words[3:])}]"
    match = re.fullmatch(r"one or more (\w+)", words)
    if match:
        return "[YRKGB]+" if match[1] == "pieces" else _colour(match[1]) + "+"
    match = re.fullmatch(r"any number of (\w+) \(or none\)", words)
    if match:
        return "[YRKGB]*" if match[1] == "pieces" else _colour(match[1]) + "*"
    return "[YRKGB]" if words == "any piece" else _colour(words)


def _times(asks: str, letters: str) -> int:
    if match := re.fullmatch(r"each (\w+) piece", asks):
        return letters.count(_colour(match[1]))
    if match := re.fullmatch(r"no (\w+) piece", asks):
        return int(_colour(match[1]) not in letters)
    if match := re.fullmatch(r"exactly (\d+) pieces", asks):
        return int(len(letters) == int(match[1]))
    if match := re.fullmatch(r"as many (\w+) as (\w+) \(at least one each\)", asks):
        first, second = letters.count(_colour(match[1])), letters.count(_colour(match[2]))
        return int(first == second >= 1)
    if asks.startswith("in a row: "):
        pattern = "".join(_element(words) for words in asks.removeprefix("in a row: ").split(", "))
        return len(re.findall(f"(?={pattern})", f"#{letters}#")) and 1  # met at least once, or not
    raise Unreadable(f"a requirement these words do not say how to meet: {asks!r}")


def _least(levels: str) -> int:
    """From "2 points for 3, 3 for 4" (a count: 3 pieces) or "2 points once, 5 twice"."""
    first = levels.split(", ")[0]
    if match := re.fullmatch(r"\d+ points? for (\d+)", first):
        return int(match[1])
    if re.fullmatch(r"\d+ points? once", first):
        return 1
    raise Unreadable(f"points these words do not say when they are scored: {levels!r}")


def card(line: str) -> Card:
    """"12 (three red): in a row: red, red, red; 3 points once, 7 twice"."""
    match = re.fullmatch(r"\s*(\d+) \([^)]*\): (.+); ([^;]+)", line)
    if not match:
        raise Unreadable(f"not a prophecy card's line: {line!r}")
    return Card(int(match[1]), match[2], _least(match[3]))


def temple(line: str) -> Temple:
    """"14 (no red, blue = green): no red piece; as many ...; 3 points for one condition met, ..."."""
    match = re.match(r"\s*(\d+) \([^)]*\): (.+)", line)
    if not match:
        raise Unreadable(f"not a temple card's line: {line!r}")
    parts = re.sub(r" \((secret|committed, face up)\)$", "", match[2]).split("; ")
    return Temple(int(match[1]), tuple(parts[:-1]))


def _section(text: str, title: str) -> list[str]:
    """The indented lines under a line `title`."""
    lines = text.splitlines()
    start = lines.index(title) + 1
    found = []
    for line in lines[start:]:
        if not line.startswith("  "):
            break
        found.append(line)
    return [] if found == ["  none"] else found


def read(name: str, status: str, board: str, hand: str) -> Position:
    """What the answers to STATUS, BOARD and HAND tell the person called `name`."""
    asked = ""
    if "Waiting for: you (choose the prophecies you keep)" in status:
        asked = "keep"
    elif "Waiting for: you (play your turn)" in status:
        asked = "turn"
    position = Position(asked=asked, actions=1)
    for kind in ("head", "tail", "body"):
        found = re.search(rf"^  {kind}: (.*)$", board, re.M)
        if not found:
            raise Unreadable(f"the BOARD answer lists no {kind} spaces")
        spaces = {}
        for space in found[1].split(", "):
            number, _, pieces = space.partition(" ")
            spaces[int(number)] = [] if pieces == "empty" else pieces.split()
        position.supply[kind] = spaces
    position.row = [card(line) for line in _section(board, "Face-up prophecies:")]
    position.commons = [temple(line) for line in _section(board, "Common temples:")]
    deck = re.search(r"Prophecy deck: (\d+), discard pile: (\d+)", board)
    position.deck = int(deck[1]) + int(deck[2]) if deck else 0
    position.hand = [card(line) for line in _section(hand, "Your prophecies:")]
    position.temples = [temple(line) for line in _section(hand, "Your temples:")]
    if "Your draw, to keep up to 3 from:" in hand:
        position.draw = [card(line) for line in _section(hand, "Your draw, to keep up to 3 from:")]
    return _seat(position, board, name)


def _seat(position: Position, board: str, name: str) -> Position:
    """The reader's own seat in the BOARD answer: its board, cóatls and actions left."""
    lines = board.splitlines()
    at = next((i for i, line in enumerate(lines) if line.startswith(f"{name} (")), None)
    if at is None:
        raise Unreadable(f"the BOARD answer has no line for {name}")
    if match := re.search(r"to play(?: \((\d+) actions left\))?\.$", lines[at]):
        position.actions = int(match[1] or 1)
    for line in lines[at + 1:]:
        if not line.startswith("  "):
            break
        if match := re.fullmatch(r"  board: heads (.*); bodies (.*); tails (.*)", line):
            position.board = {kind: [] if letters == "-" else letters.split()
                              for kind, letters in zip(("head", "body", "tail"), match.groups())}
        elif line.startswith("  cóatl "):
            position.coatls += 1
    if not position.board:
        raise Unreadable(f"the BOARD answer does not show {name}'s player board")
    return position


# ---- deciding --------------------------------------------------------------------------------------

def keep(position: Position) -> str:
    """Keep up to three cards of the draw, those met soonest (one in a row) first."""
    chosen = sorted(position.draw, key=lambda c: (c.asks.startswith("each"), c.asks.count(",")))[:3]
    return "keep " + " ".join(str(c.number) for c in chosen) if chosen else "keep none"


def best_coatl(position: Position) -> str | None:
    """The assembly of a whole cóatl from the board that fulfils the most hand prophecies."""
    if not position.hand or position.coatls >= 3:  # three cóatls is the most a player makes
        return None
    board = position.board
    best: tuple[int, int, str, str, tuple[str, ...], list[Card]] | None = None
    for head, tail in itertools.product(sorted(set(board["head"])), sorted(set(board["tail"]))):
        bodies = board["body"]
        for size in range(1, len(bodies) + 1):
            for middle in sorted(set(itertools.permutations(bodies, size))):
                letters = head + "".join(middle) + tail
                met = [c for c in position.hand if c.times(letters) >= c.least][:4]
                if met and (best is None or (len(met), -size) > (best[0], best[1])):
                    best = (len(met), -size, head, tail, middle, met)
    if best is None:
        return None
    _, _, head, tail, middle, met = best
    number = position.coatls + 1
    letters = head + "".join(middle) + tail
    steps = [f"new {_word(head)} head"] + [f"add {_word(b)} to {number}" for b in middle]
    steps += [f"add {_word(tail)} tail to {number}", f"fulfil {' '.join(str(c.number) for c in met)} on {number}"]
    able = [t.number for t in (*position.temples, *position.commons) if t.met(letters)]
    steps.append(f"complete {number}" + (f" with temple {able[0]}" if able else ""))
    return "; ".join(steps)


def _word(letter: str) -> str:
    return next(word for word, known in LETTERS.items() if known == letter)


def action(position: Position) -> tuple[str, Position]:
    """One action and the position it leaves the reader (as far as the reader can tell)."""
    room = BOARD_ROOM - sum(len(pieces) for pieces in position.board.values())
    assembly = best_coatl(position)
    if assembly:
        return assembly, _after_assembly(position, assembly)
    wanted = [kind for kind in ("head", "tail") if not position.board[kind]] + ["body", "head", "tail"]
    for kind in wanted:
        for space, pieces in sorted(position.supply[kind].items()):
            if pieces and len(pieces) <= room:
                after = _copy(position)
                after.board[kind] = after.board[kind] + pieces
                after.supply[kind] = {**after.supply[kind], space: []}
                return f"take {kind} {space}", after
    if len(position.hand) < HAND_ROOM and (position.row or position.deck):
        choice = position.row[0] if position.row else None
        after = _copy(position)
        if choice is None:
            return "choose deck 1", after
        after.row = position.row[1:]
        after.hand = position.hand + [choice]
        return f"choose {choice.number}", after
    return "pass", position


def turn(position: Position) -> str:
    """The orders of one mail: as many actions as the reader has left."""
    orders = []
    for _ in range(position.actions):
        text, position = action(position)
        orders.append(text)
    return "\n".join(orders)


def _copy(position: Position) -> Position:
    return copy.deepcopy(position)


def _after_assembly(position: Position, assembly: str) -> Position:
    after = _copy(position)
    for step in assembly.split("; "):
        words = step.split()
        if words[0] == "new":
            after.board[words[2]].remove(LETTERS[words[1]])
        elif words[0] == "add":
            kind = words[2] if words[2] in KINDS else "body"
            after.board[kind].remove(LETTERS[words[1]])
        elif words[0] == "fulfil":
            used = {int(w) for w in words[1:-2]}
            after.hand = [c for c in after.hand if c.number not in used]
    after.coatls += 1
    return after
