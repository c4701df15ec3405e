"""Tiny purpose-built boards for rule tests, written compactly.

    tiny_board("1 city, 2 desert, 3 jungle Great Tollan", borders="1-2 2-3", lakes="1 3")

A territory is "<id> <type> [name]"; without a name it is called "T<id>x".
"""
from __future__ import annotations

from engine.aztlan.board import Board, load_board


def tiny_board(territories: str, borders: str = "", lakes: str | list[str] = (),
               name: str = "test") -> Board:
    spec = []
    for item in territories.split(","):
        ident, kind, *label = item.split(maxsplit=2)
        spec.append({"id": int(ident), "name": label[0] if label else f"T{ident}x", "type": kind,
                     "neighbours": []})
    by_id = {t["id"]: t for t in spec}
    for pair in borders.split():
        a, b = map(int, pair.split("-"))
        by_id[a]["neighbours"].append(b)
        by_id[b]["neighbours"].append(a)
    if isinstance(lakes, str):
        lakes = [lakes] if lakes else []
    lake_list = [{"id": i + 1, "name": f"Lake {i + 1}", "shores": [int(x) for x in shores.split()]}
                 for i, shores in enumerate(lakes)]
    return load_board({"format": "aztlan-board/1", "name": name, "title": name,
                       "territories": spec, "lakes": lake_list})


def grid_board(rows: int = 5, cols: int = 6) -> Board:
    """A rows x cols grid of territories, types cycling, with one lake in the middle."""
    kinds = ["desert", "fields", "jungle", "mountains", "city"]
    ids = [[r * cols + c + 1 for c in range(cols)] for r in range(rows)]
    territories = ", ".join(f"{ids[r][c]} {kinds[(r * cols + c + r) % 5]}"
                            for r in range(rows) for c in range(cols))
    borders = []
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                borders.append(f"{ids[r][c]}-{ids[r][c + 1]}")
            if r + 1 < rows:
                borders.append(f"{ids[r][c]}-{ids[r + 1][c]}")
    lake = f"{ids[1][1]} {ids[1][2]} {ids[2][1]} {ids[2][2]}"
    return tiny_board(territories, " ".join(borders), [lake], name="grid")
