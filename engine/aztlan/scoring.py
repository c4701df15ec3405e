"""Domains and their scores.  Territories are bits of an int, so a domain is a mask.

"A domain is a series of adjacent territories (one or more) in which the player has
at least one tribe pawn, alone or in a coexistence - even in minority."
"A domain scores 1 point per territory, plus the number of matching territories
multiplied by itself; a domain without a matching territory scores nothing."
"""
from __future__ import annotations

from typing import Sequence

from engine.aztlan.board import TERRAIN_TYPES


def domains(occupied: int, adjacent: Sequence[int]) -> list[int]:
    """Split a mask of occupied territories into connected domains (masks)."""
    found = []
    rest = occupied
    while rest:
        domain = frontier = rest & -rest
        while frontier:
            reach = 0
            while frontier:
                bit = frontier & -frontier
                reach |= adjacent[bit.bit_length() - 1]
                frontier ^= bit
            frontier = reach & rest & ~domain
            domain |= frontier
        found.append(domain)
        rest &= ~domain
    return found


def domain_value(size: int, matching: int) -> int:
    return size + matching * matching if matching else 0


def total_score(found: list[int], type_mask: int) -> int:
    """The points of the domains with this type, in all."""
    total = 0
    for domain in found:
        matching = (domain & type_mask).bit_count()
        if matching:
            total += domain.bit_count() + matching * matching  # domain_value, inline: the bots call this often
    return total


def best_wild_type(found: list[int], type_masks: dict[str, int]) -> str:
    """The type that scores most for the wild card; ties go to the first in TERRAIN_TYPES."""
    best, best_points = TERRAIN_TYPES[0], -1
    for kind in TERRAIN_TYPES:
        points = total_score(found, type_masks[kind])
        if points > best_points:
            best, best_points = kind, points
    return best


# The set bits of each byte value, one table per byte position: bits() reads a mask a byte
# at a time, several times faster than a bit at a time.  Tables are built as masks grow.
_BYTE_BITS: list[tuple[tuple[int, ...], ...]] = []


def _byte_table(k: int) -> tuple[tuple[int, ...], ...]:
    while len(_BYTE_BITS) <= k:
        base = 8 * len(_BYTE_BITS)
        _BYTE_BITS.append(tuple(tuple(base + i for i in range(8) if value >> i & 1) for value in range(256)))
    return _BYTE_BITS[k]



def bits(mask: int) -> tuple[int, ...]:
    """The indices of the set bits of a mask, lowest first."""
    out: tuple[int, ...] = ()
    tables = _BYTE_BITS
    k = 0
    while mask:
        low = mask & 255
        if low:
            out += (tables[k] if k < len(tables) else _byte_table(k))[low]
        mask >>= 8
        k += 1
    return out


def nth_bit(mask: int, k: int) -> int:
    """The index of the set bit `k` places above the lowest (bits(mask)[k]), without
    listing the others: a bot picking one of its pawns needs only that one."""
    for _ in range(k):
        mask &= mask - 1  # drop the lowest set bit
    return (mask & -mask).bit_length() - 1
