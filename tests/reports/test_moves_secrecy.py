"""Mails about opponents' moves (pbem/services/moves_mail.py) hold only what the reader may
know: in twin games that differ only in another seat's secret, the reader is told the same
lines at every step, while the seat that holds the secret is told something else."""
import pytest

from engine.records import replay_steps
from pbem.services.moves_mail import news_lines
from reports_helpers import twin_record


def told(record, reader):
    """Everything `reader` is told, step by step, as an advance after each order would."""
    names = {p["seat"]: p["name"] for p in record["players"]}
    steps, cursor = [], 0
    for state in replay_steps(record):
        lines, cursor = news_lines(state, reader, names, cursor)
        steps.append(lines)
    return steps


@pytest.mark.parametrize("age", [1, 2, 3])
def test_another_seats_prosperity_cards_never_change_what_a_reader_is_told(record, age):
    seats = [p["seat"] for p in record["players"]]
    found = next(((other, twins) for other in seats if (twins := twin_record(record, other, age))), None)
    assert found, f"no twin game for age {age}"
    other, (base, twin) = found
    for reader in seats:
        if reader != other:
            assert told(base, reader) == told(twin, reader), f"{reader} learns {other}'s hand"


def test_a_power_card_stays_secret_until_the_reveal(record):
    seats = [p["seat"] for p in record["players"]]
    other, card = record["orders"][0].split(": card ")  # age 1 opens with every seat choosing
    hand = next(replay_steps({**record, "orders": []})).view(other)["me"]["power_left"]
    different = next(n for n in hand if str(n) != card)
    # The twin: the same game until the reveal, but the first seat chose another card.
    reveal = next(i for i, steps in enumerate(told(record, seats[1])) if any("revealed" in x for x in steps))
    base = {**record, "orders": record["orders"][:reveal]}
    twin = {**base, "orders": [f"{other}: card {different}"] + base["orders"][1:]}
    for reader in seats[1:]:
        plain, changed = told(base, reader), told(twin, reader)
        assert plain[:-1] == changed[:-1]  # identical up to the order that reveals the cards
        assert plain[-1] != changed[-1] and any("revealed" in line for line in plain[-1])
        assert not any(f"card {card}" in line or "chose power card" in line for step in plain[:-1] for line in step)
