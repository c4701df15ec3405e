"""A seat's report holds only what that seat may know.

The strongest check is a twin game: the same public game, but another seat holds a
different prosperity card.  The reader's report (context, HTML and text) must not change;
the other seat's own report must.
"""
import json

import pytest

from pbem.reports import phase_notice, render_html, render_text
from pbem.reports import round_report as age_report
from reports_helpers import replay_to_age, twin_record

SECRET_KEYS = {"deck", "seed", "hands", "setup"}


def _keys(value, path=""):
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


@pytest.mark.parametrize("age", [1, 2, 3, 4])
def test_another_seats_hand_does_not_change_the_readers_report(record, age):
    seats = [p["seat"] for p in record["players"]]
    twins = None
    for other in seats:
        twins = twin_record(record, other, age)
        if twins:
            break
    assert twins, f"no twin game for age {age}"
    base, twin = twins
    for reader in seats:
        plain = age_report(base, reader, age, title="T")
        changed = age_report(twin, reader, age, title="T")
        if reader == other:
            assert plain["hand"] != changed["hand"]  # the twin really differs, and the owner sees it
            continue
        assert plain == changed, f"{reader}'s report of age {age} depends on {other}'s hand"
        assert render_html(plain) == render_html(changed)
        assert render_html(plain, for_mail=True) == render_html(changed, for_mail=True)
        assert render_text(plain) == render_text(changed)


def test_notices_do_not_depend_on_other_hands(record):
    age = 3
    seats = [p["seat"] for p in record["players"]]
    other = seats[0]
    twins = twin_record(record, other, age)
    assert twins, f"no twin game: no undrawn card to swap into {other}'s hand by age {age}"
    base, twin = twins
    # Notices of the next age's first phases are not in the cut record: use this age's.
    for reader in seats[1:]:
        for after in ("choosing", "development", "conflict"):
            assert phase_notice(base, reader, age, after) == phase_notice(twin, reader, age, after)


def test_no_secret_fields_and_no_other_seats_draws(reports):
    for seat, age, context in reports:
        assert not SECRET_KEYS & set(_keys(context)), "a report holds a secret field"
        text = json.dumps(context)
        assert '"my-draw"' not in text and '"my-card"' not in text
        for conflict in context["conflicts"]:
            for draw in conflict["draws"]:
                if draw["seat"] != seat:
                    assert draw["card"] is None and draw["title"] is None


def test_choosing_notice_does_not_reveal_other_power_cards(record):
    age = 2
    state, upto = replay_to_age(record, age - 1)
    seats = list(state.seats)
    notices = {seat: phase_notice(record, seat, age, "choosing") for seat in seats}
    for seat, notice in notices.items():
        assert notice["cards"] == []
        assert notice["my_card"]["number"] is not None
    # Each reader sees its own card only: the notices differ in exactly that.
    for seat, notice in notices.items():
        others = [n for s, n in notices.items() if s != seat]
        for other in others:
            assert _public(notice) == _public(other)


def _public(notice):
    """A notice without what is the reader's own (its card, hand, decisions, name)."""
    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "is_reader"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value
    return strip({k: v for k, v in notice.items() if k not in ("my_card", "reader", "hand", "hand_size", "next")})
