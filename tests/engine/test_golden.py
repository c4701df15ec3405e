"""Every golden case still plays the same game, seen the same way by every seat (golden.py).

By default a fixed sixth of the cases (5 seeds in each group of players, bots and setting);
PBEM_GOLDEN=all plays all of them (as `make golden` does).  Each run has its own
PYTHONHASHSEED, so a digest that depends on set or dict order fails here sooner or later.
"""
import os

import pytest

from tests.engine.golden import all_cases, digest, load, subset

CASES = all_cases()
CHOSEN = CASES if os.environ.get("PBEM_GOLDEN") == "all" else subset(CASES)
GROUPS: dict[str, list] = {}
for _case in CHOSEN:
    GROUPS.setdefault(_case.group, []).append(_case)


@pytest.fixture(scope="module")
def golden() -> dict[str, str]:
    return load()


def test_the_golden_file_holds_every_case_and_no_other(golden):
    assert sorted(golden) == sorted(case.name for case in CASES)


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_games_match_the_golden_set(group, golden):
    differ = [case.name for case in GROUPS[group] if digest(case) != golden[case.name]]
    assert not differ, (
        f"these games changed: {', '.join(differ)}.  Compare the streams of one before and "
        "after the change with `python -m tests.engine.golden --show CASE` (docs/engine.md)")
