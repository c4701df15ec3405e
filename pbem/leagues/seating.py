"""Seating a league's rounds: who plays whom, and in which seat (docs/leagues.md, "Seating").

Pure: plain data in, plain data out.  A table is its players in seat order, the first player
first; `None` is a bot seat.  Each round first minimises repeated opponents, then spreads the
short and bot tables, then balances who sits first (and, where it costs nothing, the other
seats).

- Exact designs where one exists for the count (a resolvable design: every round a partition
  of the players, no two players together twice): the 2-player round robin (circle method),
  affine spaces AG(k, q) for q-player tables and q**k players (9 and 27 in threes, 16 and 64
  in fours), Kirkman's schoolgirls for 15 in threes (a packing of PG(3, 2)), and cosets of a
  partial spread of GF(2)**5 for 32 in fours (9 rounds).  A count one to a few short of a
  design uses it with holes (short tables or bot seats).  The design's points are given to the
  players by a shuffle seeded with the season's seed; a later round keeps to the design while
  the past rounds followed it (a replacement takes the point of the player who left).
- Elsewhere a search: a greedy start and simulated annealing of swaps, seeded, scoring repeated
  meetings, then turns at short tables, then first seats.
"""
from __future__ import annotations

import itertools
import math
import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from functools import lru_cache

Table = list[str | None]
Groups = list[list[str]]

# Search weights: a repeated meeting outweighs everything else; meeting a third time is worse
# than two pairs meeting a second time each; then turns at short tables, then first seats.
REPEAT = 1000
AGAIN = 400
SHORT = 40
FIRST = 10
# How long the annealing runs: swaps per player, and swaps without improvement before it stops.
SWAPS_PER_PLAYER = 400
PATIENCE_PER_PLAYER = 60
# Seat orders of a design's rounds: how many seeded greedy plays of the remaining rounds are tried.
SEAT_TRIALS = 24


def seat_round(players: Sequence[str], size: int, past: Sequence[Sequence[Table]], seed: int | str,
               *, min_size: int | None = None) -> list[Table]:
    """One round's tables for `players`, given the rounds already played (whose players may
    differ: withdrawals, replacements).  Deterministic for a seed; pass the season's seed
    every round so that a design is recognised and continued."""
    players = list(players)
    _check(players, size, min_size)
    if not players:
        return []
    shapes = table_shapes(len(players), size, min_size)
    history = _History(past, size)
    rng = random.Random(repr(("pbem-seating", seed, len(past), size, sorted(players))))
    continuation = _design_continuation(players, size, past, seed, shapes)
    if continuation is not None:
        groups = continuation[0]
        first = _design_first_seats(continuation, history, rng)
    else:
        groups = _search_groups(players, shapes, size, history, rng)
        first = None
    return _seat_tables(groups, shapes, history, rng, first)


def plan_season(players: Sequence[str], size: int, rounds: int, seed: int | str,
                *, min_size: int | None = None) -> list[list[Table]]:
    """A whole season for a fixed list of players, round by round as a league seats it."""
    season: list[list[Table]] = []
    for _ in range(rounds):
        season.append(seat_round(players, size, season, seed, min_size=min_size))
    return season


def repeated_pairs(rounds: Sequence[Sequence[Table]]) -> int:
    """Extra meetings of the same two players (bots not counted): 0 for a perfect season."""
    meetings = _meetings(rounds)
    return sum(times - 1 for times in meetings.values() if times > 1)


def seat_balance(rounds: Sequence[Sequence[Table]]) -> dict[str, list[int]]:
    """Per player, how many times they sat in each seat position (first seat first)."""
    width = max((len(table) for round_ in rounds for table in round_), default=0)
    balance: dict[str, list[int]] = {}
    for round_ in rounds:
        for table in round_:
            for position, player in enumerate(table):
                if player is not None:
                    balance.setdefault(player, [0] * width)[position] += 1
    return balance


def table_shapes(count: int, size: int, min_size: int | None = None) -> list[tuple[int, int]]:
    """The rule for counts that do not divide: (people, seats) per table, fullest first.

    As few tables as possible, ceil(count / size); the people spread evenly over them (table
    sizes differ by at most one); a table with fewer people than the game's fewest players
    (`min_size`; without it, the table size) is made up to that with bot seats.  So with
    `min_size` the tables one short play short, and without it every table is full."""
    if count <= 0:
        return []
    tables = -(-count // size)
    base, extra = divmod(count, tables)
    floor = size if min_size is None else min_size
    return [(people, max(people, floor)) for people in [base + 1] * extra + [base] * (tables - extra)]


def _check(players: list[str], size: int, min_size: int | None) -> None:
    if size < 2:
        raise ValueError(f"a table seats at least 2 players, not {size}")
    if min_size is not None and not 2 <= min_size <= size:
        raise ValueError(f"min_size must be between 2 and the table size {size}, not {min_size}")
    repeated = sorted(name for name, times in Counter(players).items() if times > 1)
    if repeated:
        raise ValueError(f"players listed twice: {', '.join(repeated)}")


def _meetings(rounds: Sequence[Sequence[Table]]) -> Counter[frozenset[str]]:
    meetings: Counter[frozenset[str]] = Counter()
    for round_ in rounds:
        for table in round_:
            people = [player for player in table if player is not None]
            meetings.update(frozenset(pair) for pair in itertools.combinations(people, 2))
    return meetings


class _History:
    """What the past rounds leave to balance: meetings, turns at short tables (fewer people
    than `size`, playing short or with bots), and for each
    seat position how far a player is above (+) or below (-) a fair share of it (a table of n
    people gives each 1/n of each of its n seats)."""

    def __init__(self, past: Sequence[Sequence[Table]], size: int):
        self.meetings = _meetings(past)
        self.short: Counter[str] = Counter()
        self.seat_excess: defaultdict[str, defaultdict[int, float]] = defaultdict(lambda: defaultdict(float))
        for round_ in past:
            for table in round_:
                people = [player for player in table if player is not None]
                if len(people) < size:  # short, or with bots
                    self.short.update(people)
                for position, player in enumerate(table):
                    if player is not None:
                        self.sat(player, position, len(people))

    def sat(self, player: str, position: int, people: int) -> None:
        excess = self.seat_excess[player]
        for seat in range(people):
            excess[seat] -= 1 / people
        excess[position] += 1

    def first_excess(self, player: str) -> float:
        return self.seat_excess[player][0]


# ---------------------------------------------------------------- seat order within tables

def _seat_tables(groups: Groups, shapes: list[tuple[int, int]], history: _History, rng: random.Random,
                 first: list[str] | None) -> list[Table]:
    """Each group in seat order, bots in the last seats (a person always sits first).  The
    first seat goes to `first`'s pick or else to the member furthest below a fair share of
    first seats; the others take the order that best evens their other seats."""
    seats_for = sorted((seats for _, seats in shapes), reverse=True)
    groups = sorted(groups, key=len, reverse=True)  # fullest first, as the shapes
    tables = []
    for index, group in enumerate(groups):
        leader = first[index] if first is not None else _lowest(group, history.first_excess, rng)
        rest = [player for player in group if player != leader]
        rng.shuffle(rest)
        orders = itertools.permutations(rest) if len(rest) <= 4 else [tuple(rest)]
        best = min(orders, key=lambda order: sum(history.seat_excess[player][seat]
                                                 for seat, player in enumerate(order, start=1)))
        table: Table = [leader, *best]
        tables.append(table + [None] * (seats_for[index] - len(table)))
    rng.shuffle(tables)
    return tables


def _lowest(group: Sequence[str], score, rng: random.Random) -> str:
    """The member with the lowest score, ties broken by the seeded generator."""
    low = min(score(player) for player in group)
    return rng.choice([player for player in group if score(player) <= low + 1e-9])


def _design_first_seats(continuation: list[Groups], history: _History, rng: random.Random) -> list[str]:
    """Who sits first at each table of a design's next round: the best of several seeded
    greedy plays of all the design's remaining rounds, judged by how even the first seats are
    after each of them, the nearest round first (the season may stop at any round)."""
    players = sorted({player for group in continuation[0] for player in group})
    start = {player: history.first_excess(player) for player in players}
    best, best_score = [], None
    for _ in range(SEAT_TRIALS):
        excess = dict(start)
        picks, score = [], []
        for groups in continuation:
            ordered = sorted(groups, key=len, reverse=True)
            chosen = [_lowest(group, excess.__getitem__, rng) for group in ordered]
            for group, leader in zip(ordered, chosen):
                for player in group:
                    excess[player] -= 1 / len(group)
                excess[leader] += 1
            picks = picks or chosen
            score.append(round(max(excess.values()) - min(excess.values()), 6))
        if best_score is None or score < best_score:
            best, best_score = picks, score
    return best


# ---------------------------------------------------------------- designs

def _design_continuation(players: list[str], size: int, past: Sequence[Sequence[Table]], seed: int | str,
                         shapes: list[tuple[int, int]]) -> list[Groups] | None:
    """The groups of this round and of the design's remaining rounds, if a design fits the
    count and the past rounds followed it; else None.

    A design on N points is used for N - holes people, the holes all in one table of its last
    round, so that in every other round they sit at different tables (the short tables of
    `table_shapes`).  The season's first people take the points by a seeded shuffle; a newcomer
    takes a point whose holder left; a point without a holder is a hole."""
    points = len(shapes) * size
    design = _design(points, size)
    if design is None or len(past) >= len(design):
        return None
    start = sorted({p for table in past[0] for p in table if p is not None}) if past else sorted(players)
    holes = points - len(start)
    if not 0 <= holes < size or -(-len(start) // size) * size != points:
        return None
    shuffled = list(start)
    random.Random(repr(("pbem-seating-design", seed, points, size))).shuffle(shuffled)
    holder = dict(zip([p for p in range(points) if p not in design[-1][0][:holes]], shuffled))
    for blocks, round_ in zip(design, past):
        if not _follows(blocks, round_, holder):
            return None
    present = set(players)
    vacant = [point for point in range(points) if holder.get(point) not in present]
    placed = set(holder.values())
    newcomers = sorted(player for player in players if player not in placed)
    if len(newcomers) > len(vacant):
        return None
    holder.update(zip(vacant, newcomers))
    rounds = [[[holder[p] for p in block if holder.get(p) in present] for block in blocks]
              for blocks in design[len(past):]]
    wanted = sorted(people for people, _ in shapes)
    if sorted(map(len, rounds[0])) != wanted:
        return None
    # Later rounds matter only for balancing first seats; keep those the design can still seat.
    return [rounds[0]] + [groups for groups in rounds[1:] if sorted(map(len, groups)) == wanted]


def _follows(blocks: Sequence[Sequence[int]], round_: Sequence[Table], holder: dict[int, str]) -> bool:
    """Whether a past round seated the design's blocks (a newcomer taking a point left free at
    their table); updates `holder` with the newcomers."""
    block_of = {point: index for index, block in enumerate(blocks) for point in block}
    point_of = {player: point for point, player in holder.items()}
    used = set()
    for table in round_:
        people = [player for player in table if player is not None]
        known = {block_of[point_of[player]] for player in people if player in point_of}
        if len(known) != 1 or known & used:
            return False
        used |= known
        block = blocks[known.pop()]
        free = [point for point in block if holder.get(point) not in people]
        newcomers = sorted(player for player in people if player not in point_of)
        if len(newcomers) > len(free) or len(people) > len(block):
            return False
        holder.update(zip(free, newcomers))
    return True


@lru_cache(maxsize=None)
def _design(points: int, size: int) -> tuple[tuple[tuple[int, ...], ...], ...] | None:
    """A resolvable design on `points` points in blocks of `size`: rounds of blocks, no two
    points together twice.  None where none is known here."""
    if size == 2 and points % 2 == 0:
        return _circle(points)
    if size == 3 and points == 15:
        return _kirkman_15()
    if size == 4 and points == 32:
        return _binary_spread_cosets(5)
    dimension = round(math.log(points, size)) if points > 1 else 0
    if dimension >= 1 and size ** dimension == points and size in _FIELDS:
        return _affine(size, dimension)
    return None


def _circle(points: int) -> tuple:
    """The round robin's circle method: one point fixed, the others turning round it."""
    turning = points - 1
    rounds = []
    for shift in range(turning):
        pairs = [(shift, turning)] + [((shift + step) % turning, (shift - step) % turning)
                                      for step in range(1, points // 2)]
        rounds.append(tuple(pairs))
    return tuple(rounds)


def _field(q: int):
    """Addition and multiplication of GF(q), q a prime or 4."""
    if q == 4:  # GF(2)[a] / (a^2 + a + 1): 0, 1, a, a + 1 as 0..3; adding is xor
        powers, logs = [1, 2, 3], {1: 0, 2: 1, 3: 2}
        return (lambda x, y: x ^ y,
                lambda x, y: 0 if 0 in (x, y) else powers[(logs[x] + logs[y]) % 3])
    return (lambda x, y: (x + y) % q, lambda x, y: (x * y) % q)


_FIELDS = (2, 3, 4, 5, 7)


def _affine(q: int, dimension: int) -> tuple:
    """AG(dimension, q): points are the vectors of GF(q)**dimension, a round is a direction,
    its blocks the parallel lines {x + t d}; two directions share no pair of points."""
    add, mul = _field(q)
    vectors = list(itertools.product(range(q), repeat=dimension))
    index = {vector: number for number, vector in enumerate(vectors)}
    directions = [v for v in vectors if any(v) and v[next(i for i, x in enumerate(v) if x)] == 1]
    rounds = []
    for direction in directions:
        seen, blocks = set(), []
        for vector in vectors:
            if index[vector] in seen:
                continue
            line = tuple(index[tuple(add(x, mul(t, d)) for x, d in zip(vector, direction))] for t in range(q))
            seen.update(line)
            blocks.append(line)
        rounds.append(tuple(blocks))
    return tuple(rounds)


def _lines_of_binary_space(dimension: int) -> list[frozenset[int]]:
    """The 2-dimensional subspaces of GF(2)**dimension, each as its three nonzero vectors."""
    lines = {frozenset((a, b, a ^ b)) for a in range(1, 2 ** dimension) for b in range(a + 1, 2 ** dimension)}
    return sorted(lines, key=sorted)


def _kirkman_15() -> tuple:
    """Kirkman's schoolgirls: a packing of PG(3, 2), seven spreads (each five lines covering
    the fifteen points) using every line once.  Points are 1..15 as vectors of GF(2)**4."""
    lines = _lines_of_binary_space(4)
    spreads = []

    def spread(chosen: list[frozenset[int]], covered: frozenset[int]) -> None:
        if len(covered) == 15:
            spreads.append(frozenset(chosen))
            return
        first = min(set(range(1, 16)) - covered)
        for line in lines:
            if first in line and not line & covered:
                spread(chosen + [line], covered | line)

    spread([], frozenset())

    def packing(chosen: list[frozenset], used: frozenset) -> list[frozenset] | None:
        if len(chosen) == 7:
            return chosen
        line = next(line for line in lines if line not in used)
        for option in spreads:
            if line in option and not option & used:
                found = packing(chosen + [option], used | option)
                if found:
                    return found
        return None

    found = packing([], frozenset())
    return tuple(tuple(tuple(sorted(point - 1 for point in line)) for line in sorted(spread_, key=sorted))
                 for spread_ in found)


def _binary_spread_cosets(dimension: int) -> tuple:
    """Tables of four on 2**dimension points: a round is a 2-dimensional subspace W of
    GF(2)**dimension, its tables the cosets x + W; two rounds share a pair only if their
    subspaces share a nonzero vector, so the rounds come from a partial spread (pairwise
    disjoint lines of PG(dimension - 1, 2)), found by a small exhaustive search (9 for 32)."""
    lines = _lines_of_binary_space(dimension)
    target = (2 ** dimension - 1) // 3 - (1 if dimension % 2 else 0)

    def extend(chosen: list[frozenset[int]], covered: frozenset[int], start: int) -> list | None:
        if len(chosen) == target:
            return chosen
        for number in range(start, len(lines)):
            if not lines[number] & covered:
                found = extend(chosen + [lines[number]], covered | lines[number], number + 1)
                if found:
                    return found
        return None

    rounds = []
    for line in extend([], frozenset(), 0):
        a, b, c = sorted(line)
        seen, blocks = set(), []
        for x in range(2 ** dimension):
            if x not in seen:
                block = (x, x ^ a, x ^ b, x ^ c)
                seen.update(block)
                blocks.append(tuple(sorted(block)))
        rounds.append(tuple(blocks))
    return tuple(rounds)


# ---------------------------------------------------------------- search

def _search_groups(players: list[str], shapes: list[tuple[int, int]], size: int, history: _History,
                   rng: random.Random) -> Groups:
    """Groups of the shapes' sizes for this round, scored by repeated meetings (a third
    meeting costs more than two second ones), then turns at short tables, then tables with no
    player owed a first seat.  A greedy start (the most-met players first, each where it adds
    least), improved by simulated annealing of swaps of two players between tables."""
    count = len(players)
    order = list(players)
    rng.shuffle(order)
    met = [[history.meetings[frozenset((order[a], order[b]))] if a != b else 0 for b in range(count)]
           for a in range(count)]
    short_turns = [history.short[player] for player in order]
    first_owed = [history.first_excess(player) for player in order]
    capacity = [people for people, _ in shapes]
    is_short = [people < size for people, _ in shapes]

    def lesser(members: list[int], table: int) -> float:
        """The costs after repeats: turns at a short table, first seats."""
        total = SHORT * sum(2 * short_turns[m] + 1 for m in members) if is_short[table] else 0
        return total + FIRST * min((first_owed[m] for m in members), default=0)

    tables: list[list[int]] = [[] for _ in shapes]
    for member in sorted(range(count), key=lambda m: -sum(met[m])):
        def added(t: int) -> float:
            return (sum(_again(met[member][m]) for m in tables[t])
                    + lesser(tables[t] + [member], t) - lesser(tables[t], t))
        tables[min((t for t in range(len(tables)) if len(tables[t]) < capacity[t]), key=added)].append(member)
    if len(tables) > 1:
        _anneal(tables, met, lesser, rng)
    return [[order[m] for m in members] for members in tables]


def _again(times: int) -> int:
    """What one more meeting of two players who met `times` times costs."""
    return 0 if times <= 0 else REPEAT + AGAIN * (times - 1)


def _anneal(tables: list[list[int]], met: list[list[int]], lesser, rng: random.Random) -> None:
    """Simulated annealing of swaps of two players between tables, in place; keeps the best
    seen.  Stops early once no repeat is left and the lesser costs stopped improving."""
    count = len(met)
    where = [0] * count
    for table, members in enumerate(tables):
        for member in members:
            where[member] = table
    extra = [lesser(members, table) for table, members in enumerate(tables)]
    repeats = sum(_again(met[a][b]) for members in tables for a, b in itertools.combinations(members, 2))
    total = repeats + sum(extra)
    best_total, best = total, [list(members) for members in tables]
    swaps, patience = SWAPS_PER_PLAYER * count, PATIENCE_PER_PLAYER * count
    hot, cold = REPEAT / 3, 1.0
    since_best = 0
    for step in range(swaps):
        a, b = rng.randrange(count), rng.randrange(count)
        ta, tb = where[a], where[b]
        if ta == tb:
            continue
        others_a = [m for m in tables[ta] if m != a]
        others_b = [m for m in tables[tb] if m != b]
        meetings = (sum(_again(met[b][m]) - _again(met[a][m]) for m in others_a)
                    + sum(_again(met[a][m]) - _again(met[b][m]) for m in others_b))
        new_a, new_b = lesser(others_a + [b], ta), lesser(others_b + [a], tb)
        delta = meetings + new_a + new_b - extra[ta] - extra[tb]
        temperature = hot * (cold / hot) ** (step / swaps)
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            tables[ta], tables[tb] = others_a + [b], others_b + [a]
            where[a], where[b] = tb, ta
            extra[ta], extra[tb] = new_a, new_b
            repeats += meetings
            total += delta
            if total < best_total - 1e-9:
                best_total, best, since_best = total, [list(members) for members in tables], 0
                continue
        since_best += 1
        if since_best > patience and repeats == 0:
            break
    tables[:] = best
