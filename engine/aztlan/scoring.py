"""Domains and their scores.  Territories are bits of an int, so a domain is a mask.

"A domain is a series of adjacent territories (one or more) in which the player has
at least one tribe pawn, alone or in a coexistence - even in minority."
"A domain scores 1 point per territory, plus the number of matching territories
multiplied by itself; a domain without a matching territory scores nothing."
"""
from __future__ import annotations

from dataclasses import dataclass
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


@dataclass(slots=True)  # not frozen: built often, and a frozen init is several times slower
class DomainScore:
    territories: tuple[int, ...]  # indices
    matching: int
    points: int


def score_domains(found: list[int], type_mask: int) -> tuple[int, list[DomainScore]]:
    scores = []
    total = 0
    for domain in found:
        matching = (domain & type_mask).bit_count()
        points = domain_value(domain.bit_count(), matching)
        total += points
        scores.append(DomainScore(bits(domain), matching, points))
    return total, scores


def best_wild_type(found: list[int], type_masks: dict[str, int]) -> str:
    """The type that scores most for the wild card; ties go to the first in TERRAIN_TYPES."""
    best, best_points = TERRAIN_TYPES[0], -1
    for kind in TERRAIN_TYPES:
        mask = type_masks[kind]
        points = sum(domain_value(d.bit_count(), (d & mask).bit_count()) for d in found)
        if points > best_points:
            best, best_points = kind, points
    return best


def bits(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        bit = mask & -mask
        out.append(bit.bit_length() - 1)
        mask ^= bit
    return tuple(out)
