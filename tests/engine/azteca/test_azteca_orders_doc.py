"""docs/orders.md's Azteca section: every example order in it parses with the engine, every
kind of decision has a row, and every error shown is the engine's own message for its line."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.azteca.game import DECISION_KINDS, GAME
from engine.core import ParseError

DOC = Path(__file__).resolve().parents[3] / "docs" / "orders.md"


def _section() -> tuple[str, str]:
    """The Azteca section, without its Errors part, and the Errors part."""
    text = DOC.read_text(encoding="utf-8").split("\n## Azteca\n", 1)[1]
    text = re.split(r"\n## ", text, maxsplit=1)[0]
    body, _, rest = text.partition("\n### Errors\n")
    errors, _, after = rest.partition("\n### ")
    return body + "\n### " + after, errors


def _table_rows(body: str) -> list[list[str]]:
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in body.splitlines()
            if line.startswith("| ") and not line.startswith("| decision")]


def _examples() -> list[str]:
    """Each order of the table's last column and each line of the indented blocks (a record's
    line without its seat)."""
    body, _ = _section()
    found = [span for row in _table_rows(body) for span in re.findall(r"`([^`]+)`", row[-1])]
    for line in body.splitlines():
        if line.startswith("    ") and line.strip():
            found.append(re.sub(r"^\s*[a-z]+: ", "", line).strip())
    return found


def _state():
    return GAME.new_game({"game": "azteca", "seed": 1, "players": [{"seat": s} for s in GAME.seating(1, 4)]})


@pytest.mark.parametrize("example", _examples())
def test_every_example_parses_and_its_canonical_text_reads_back(example: str) -> None:
    state = _state()
    orders = state.parse(example)
    assert orders and state.parse("\n".join(state.order_text(o) for o in orders)) == orders


def test_every_kind_of_decision_has_a_row_with_an_example() -> None:
    body, _ = _section()
    kinds = {m for row in _table_rows(body) for m in re.findall(r"\(`([a-z]+)`\)", row[0])}
    assert kinds == {kind.name for kind in DECISION_KINDS}
    assert len(_examples()) > len(DECISION_KINDS)


def test_every_error_shown_is_the_engines_message() -> None:
    _, errors = _section()
    shown = re.findall(r"^- `([^`]+)`: (.+)$", errors, re.MULTILINE)
    assert len(shown) >= 4
    for line, message in shown:
        with pytest.raises(ParseError) as raised:
            _state().parse(line)
        assert str(raised.value) == message
