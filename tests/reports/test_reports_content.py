"""Report contents (pbem/reports/content.py) checked against the record, replayed by the
engine: every seat's report of every age of a recorded 4-player game, and the final one."""
import json
import re
from datetime import datetime, timezone

import pytest

from engine.aztlan.cards import CARD_TITLES
from engine.aztlan.scoring import domain_value
from engine.records import replay
from pbem.reports import ReportError, final_report, phase_notice
from pbem.reports import round_report as age_report
from pbem.reports.content import next_step
from reports_helpers import NAMES, TITLE, check_set_equals_alone, expand, replay_to_age, replay_until


def test_every_seat_gets_a_report_for_every_age(record, reports):
    seats = [p["seat"] for p in record["players"]]
    assert sorted((seat, age) for seat, age, _ in reports) == sorted((s, a) for s in seats for a in range(1, 6))
    for seat, age, context in reports:
        assert context["kind"] == ("final" if age == 5 else "age")
        assert context["reader"]["seat"] == seat and context["age"] == age
        assert context["format"] == "pbem-report/1"
        assert json.loads(json.dumps(context)) == context  # plain JSON: storable as is


def test_game_facts_and_names(record, reports):
    names = {p["seat"]: p["name"] for p in record["players"]}
    for seat, _, context in reports:
        assert context["game"]["title"] == TITLE
        assert context["reader"]["name"] == names[seat]
        assert context["game"]["links"]["game"] == "https://pbem.example/games/7"
    assert set(names.values()) == set(NAMES)


def test_scores_domains_and_totals_match_the_record(record, reports):
    for seat, age, context in reports:
        state, _ = replay_to_age(record, age)
        breakdown = state.age_scores[age - 1]
        assert {e["seat"] for e in context["scores"]} == set(state.seats)
        assert context["scores"][0]["seat"] == seat  # the reader's own scoring comes first
        for entry in context["scores"]:
            expected = breakdown[entry["seat"]]
            assert entry["points"] == expected["points"]
            assert entry["total"] == expected["total"]
            assert entry["card"]["number"] == expected["card"]
            assert entry["type"] == expected["type"] and entry["wild"] == expected["wild"]
            assert sorted((sorted(t["id"] for t in d["territories"]), d["points"]) for d in entry["domains"]) == \
                sorted((sorted(d["territories"]), d["points"]) for d in expected["domains"])
            for domain in entry["domains"]:
                assert domain["points"] == domain_value(domain["size"], domain["matching"])
                assert domain["matching"] == sum(t["matching"] for t in domain["territories"])
                assert all(t["type"] == expected["type"] for t in domain["territories"] if t["matching"])
            blessings = sum(b["points"] for b in entry["blessings"])
            assert entry["domain_points"] + blessings == entry["points"]
            assert [b["card"] for b in entry["blessings"]] == [b["card"] for b in expected["blessings"]]
            assert len(entry["rafts"]) == len(expected["rafts"])
        mine = next(e for e in context["scores"] if e["seat"] == seat)
        assert (context["reader"]["points"], context["reader"]["total"]) == (mine["points"], mine["total"])


def test_revealed_cards_and_wild_choice(record, reports):
    for seat, age, context in reports:
        state, _ = replay_to_age(record, age)
        for entry in context["cards"]:
            s = state.seat_index(entry["seat"])
            assert entry["card"]["number"] == state.played[s][age - 1]
            scored = state.age_scores[age - 1][entry["seat"]]
            assert entry["wild_type"] == (scored["type"] if scored["wild"] else None)


def test_conflicts_and_their_outcomes_match_the_events(record, reports):
    outcomes = {"battle-result": "battle", "coexist": "coexist", "tie": "tie"}
    for seat, age, context in reports:
        state, _ = replay_to_age(record, age)
        public = [e for e in state.events_for(None) if e["age"] == age]
        listed = next(e for e in public if e["type"] == "conflicts")["territories"]
        assert [c["territory"]["id"] for c in context["conflicts"]] == [c["territory"] for c in listed]
        ended = {e["territory"]: outcomes[e["type"]] for e in public if e["type"] in outcomes}
        for conflict, raw in zip(context["conflicts"], listed):
            assert conflict["outcome"] == ended[raw["territory"]]
            assert {p["people"]["id"]: p["power"] for p in conflict["powers"]} == raw["powers"]
        tlatoani = {e["territory"]: e["seat"] for e in public if e["type"] == "tlatoani"}
        for conflict in context["conflicts"]:
            ident = conflict["territory"]["id"]
            assert (conflict["tlatoani"] or {}).get("seat") == tlatoani.get(ident)
            result = next((e for e in public if e["type"] == "battle-result" and e["territory"] == ident), None)
            if result:
                assert [s["seat"] for s in conflict["sacred_games"]] == result["sacred_games"]
                assert {r["id"]: r["count"] for r in conflict["removed"]} == result["removed"]


def test_the_recorded_game_shows_every_kind_of_event(reports):
    """The seed is chosen so the reports show each rule at least once."""
    conflicts = [c for _, _, ctx in reports for c in ctx["conflicts"]]
    assert {c["outcome"] for c in conflicts} == {"battle", "coexist", "tie"}
    assert any(c["tlatoani"] for c in conflicts)
    assert any(c["sacred_games"] for c in conflicts)
    played = {p["card"] for _, _, ctx in reports for p in ctx["played"]}
    assert {"eagle-jaguar", "rafts", "sacred-games", "tlatoani"} <= played
    assert any(b in played for b in ("mixcoatl", "tepeyollotl", "xipe-totec"))
    assert any(e["wild"] for _, _, ctx in reports for e in ctx["scores"])
    assert any(ctx["final"] and ctx["final"]["tiebreaks"] for _, _, ctx in reports)


def test_own_hand_power_cards_and_draws(record, reports):
    for seat, age, context in reports:
        state, _ = replay_to_age(record, age)
        s = state.seat_index(seat)
        assert expand(context["hand"]) == sorted(state.hands[s])
        assert [c["number"] for c in context["power_left"]] == state.power_left[s]
        drawn = [e["card"] for e in state.events_for(s) if e["age"] == age and e["type"] == "my-draw"]
        assert [d["card"] for d in context["my_draws"]] == drawn
        # Draws are named only for the reader.
        for conflict in context["conflicts"]:
            for draw in conflict["draws"]:
                assert (draw["card"] is not None) == (draw["seat"] == seat)
        assert {h["seat"]: h["hand_size"] for h in context["hand_sizes"]} == \
            {state.seats[i]: len(state.hands[i]) for i in range(state.n)}


def test_score_track_stacks_and_next_turn_order(record, reports):
    for seat, age, context in reports:
        state, _ = replay_to_age(record, age)
        order = sorted(range(state.n), key=lambda i: (-state.score[i], -state.height[i]))
        flat = [e["seat"] for stack in context["track"] for e in stack["stack"]]
        assert flat == [state.seats[i] for i in order]
        for stack in context["track"]:
            assert all(state.score[state.seat_index(e["seat"])] == stack["score"] for e in stack["stack"])
        scores = [stack["score"] for stack in context["track"]]
        assert scores == sorted(set(scores), reverse=True)
        if context["kind"] == "age":
            assert [t["seat"] for t in context["turn_order"]] == [state.seats[i] for i in state.turn_order()]
            assert context["next"]["phase"] == "choosing" and context["next"]["yours"]
            assert [c["number"] for c in context["next"]["cards"]] == state.power_left[state.seat_index(seat)]
        else:
            assert context["turn_order"] == []
        bonus = state.final["bonuses"] if state.final else {}
        for stack in context["track"]:
            for e in stack["stack"]:
                expected = state.age_scores[age - 1][e["seat"]]["points"]
                assert e["gained"] == expected + (bonus[e["seat"]]["points"] if bonus else 0)


def test_final_report_bonuses_ranking_and_tiebreak(record, reports):
    state, _ = replay_to_age(record, 5)
    result = state.result()
    finals = [ctx for _, _, ctx in reports if ctx["kind"] == "final"]
    assert len(finals) == 4
    for context in finals:
        final = context["final"]
        assert [e["seat"] for e in final["ranking"]] == result["ranking"]
        assert final["winner"]["seat"] == result["winner"]
        for bonus in final["bonuses"]:
            expected = result["bonuses"][bonus["seat"]]
            assert bonus["unused_power"] == expected["unused_power"]
            assert [c["number"] for c in bonus["unused_power_cards"]] == expected["unused_power_cards"]
            assert bonus["prosperity"] == expected["prosperity"]
            assert bonus["offerings"] == expected["offerings"]
            assert bonus["points"] == expected["points"] and bonus["total"] == expected["total"]
            assert expand(bonus["hand"]) == expected["hand"]
        for entry in final["ranking"]:
            assert entry["score"] == result["scores"][entry["seat"]]
        tied = [e for e in final["ranking"] if e["shared_score"]]
        assert tied and final["tiebreaks"]
        for tiebreak in final["tiebreaks"]:
            group = [e["seat"] for e in final["ranking"] if e["score"] == tiebreak["score"]]
            assert [o["seat"] for o in tiebreak["order"]] == group
            assert "below" in tiebreak["text"]
        assert context["next"]["phase"] == "over" and context["next"]["deadline"] is None


def test_final_report_equals_the_last_age_report(record):
    seat = record["players"][0]["seat"]
    assert final_report(record, seat, title="t") == age_report(record, seat, 5, title="t")


def test_deadline_in_the_readers_time_zone(record):
    seat = record["players"][1]["seat"]
    winter = datetime(2025, 1, 15, 17, 0, tzinfo=timezone.utc)
    summer = datetime(2025, 7, 15, 17, 0, tzinfo=timezone.utc)
    paris = age_report(record, seat, 1, tz="Europe/Paris", deadline=winter)["next"]["deadline"]
    assert (paris["local"], paris["abbrev"], paris["zone"]) == ("Wednesday 15 January 2025, 18:00", "CET",
                                                                "Europe/Paris")
    assert paris["utc"] == "Wed 15 Jan, 17:00 UTC"
    tokyo = age_report(record, seat, 1, tz="Asia/Tokyo", deadline=summer)["next"]["deadline"]
    assert tokyo["local"] == "Wednesday 16 July 2025, 02:00" and tokyo["abbrev"] == "JST"
    york = age_report(record, seat, 1, tz="America/New_York", deadline=summer)["next"]["deadline"]
    assert york["local"].endswith("13:00") and york["abbrev"] == "EDT"
    naive = age_report(record, seat, 1, tz="nowhere/../etc", deadline=datetime(2025, 1, 15, 17, 0))
    assert naive["next"]["deadline"]["zone"] == "UTC" and naive["next"]["deadline"]["local"].endswith("17:00")
    assert age_report(record, seat, 1)["next"]["deadline"] is None


def test_phase_notices(record):
    age = 2
    state, _ = replay_to_age(record, age - 1)
    seat = record["players"][2]["seat"]
    chosen = phase_notice(record, seat, age, "choosing", title=TITLE)
    assert chosen["kind"] == "notice" and chosen["notice"] == "choosing"
    assert chosen["cards"] == [] and chosen["conflicts"] == []  # nothing revealed yet
    assert chosen["my_card"] is not None  # the reader's own card, known to the reader
    assert [t["seat"] for t in chosen["turn_order"]] == [state.seats[i] for i in state.turn_order()]
    developed = phase_notice(record, seat, age, "development")
    after, _ = replay_to_age(record, age)
    assert {c["seat"]: c["card"]["number"] for c in developed["cards"]} == \
        {after.seats[i]: after.played[i][age - 1] for i in range(after.n)}
    assert developed["board"]["svg"].startswith("<svg")
    report = age_report(record, seat, age)
    assert [c["territory"]["id"] for c in developed["conflicts"]] == [c["territory"]["id"] for c in report["conflicts"]]
    settled = phase_notice(record, seat, age, "conflict")
    assert [c["outcome"] for c in settled["conflicts"]] == [c["outcome"] for c in report["conflicts"]]
    assert my_card_number(chosen) == report["cards"][[c["seat"] for c in report["cards"]].index(seat)]["card"]["number"]


def my_card_number(notice):
    return notice["my_card"]["number"]


def test_reports_that_cannot_be_made(record):
    seat = record["players"][0]["seat"]
    short = {**record, "orders": record["orders"][:40]}
    with pytest.raises(ReportError):
        age_report(short, seat, 1)
    with pytest.raises(ReportError):
        age_report(record, "jaguar", 1)
    with pytest.raises(ReportError):
        age_report(record, seat, 6)
    with pytest.raises(ReportError):
        phase_notice(record, seat, 1, "scoring")


def test_card_titles_follow_the_engine():
    from pbem.games.aztlan.report import CARD_TITLES as REPORT_TITLES
    assert REPORT_TITLES == CARD_TITLES


def test_development_notice_outlines_exactly_the_disputed_territories(record):
    for age in range(1, 6):
        for seat in [p["seat"] for p in record["players"]]:
            notice = phase_notice(record, seat, age, "development")
            outlined = {int(t) for t in re.findall(r'data-highlight="(\d+)"', notice["board"]["svg"])}
            assert outlined == {c["territory"]["id"] for c in notice["conflicts"]}, (seat, age)
            assert outlined, "the recorded game has conflicts in every age"


def test_the_deadline_is_shown_only_to_a_reader_who_owes_a_decision(record):
    from pbem.reports import render_html, render_text
    deadline = datetime(2025, 1, 15, 17, 0, tzinfo=timezone.utc)
    owes = {}
    for seat in [p["seat"] for p in record["players"]]:  # development: one seat's turn at a time
        notice = phase_notice(record, seat, 2, "choosing", tz="Europe/Paris", deadline=deadline)
        owes[seat] = notice["next"]["yours"]
        shown = notice["next"]["deadline"] is not None
        assert shown == owes[seat], seat
        for page in (render_text(notice), render_html(notice), render_html(notice, for_mail=True)):
            assert ("Deadline:" in page) == owes[seat] and ("18:00" in page) == owes[seat], seat
    assert sorted(owes.values()) == [False, False, False, True]


# The phases each notice follows: its moment is the first order after which the game is
# past them (the oracle, written from docs/reports.md, not from content.py).
_NOTICE_AFTER = {"choosing": ("choosing",), "development": ("choosing", "development"),
                 "conflict": ("choosing", "development", "conflict")}


def _check_examples(state, seat, expected, where):
    """Every example order parses and is legal for `seat` in `state` (tried on a copy);
    the kinds of decision the examples were for."""
    for text in expected["orders"]:
        trial = state.clone()
        try:
            trial.submit(seat, trial.parse(text))
        except Exception as error:  # the engine's parse and legality errors
            raise AssertionError(f"{where}: example order {text!r} for {seat}: {error}") from None
    return {d["kind"] for d in state.view(seat)["me"]["decisions"]} if expected["orders"] else set()


def test_every_example_order_is_legal_for_its_reader(record, reports):
    kinds = set()
    for seat, age, context in reports:
        state, _ = replay_to_age(record, age)
        kinds |= _check_examples(state, seat, context["next"], f"report of age {age}")
    for age in range(1, 6):
        for after, done in _NOTICE_AFTER.items():
            state, _ = replay_until(record, lambda s: s.age > age or (s.age == age and s.phase not in done),
                                    f"the {after} phase of age {age}")
            for seat in state.seats:
                notice = phase_notice(record, seat, age, after)
                kinds |= _check_examples(state, seat, notice["next"], f"{after} notice of age {age}")
    assert {"power", "turn", "conflict", "scoring"} <= kinds, kinds


def _owing(state, kind, offered):
    """The seat that owes a decision of `kind` whose legal options satisfy `offered`, or None."""
    return next((d.seat for d in state.decisions() if d.kind == kind and offered(d.options)), None)


@pytest.mark.parametrize("kind, offered, word, shown", [
    ("turn", lambda o: o["eagle"], "eagle", True),
    ("reaction", lambda o: o["sacred_games"], "sacred", True),
    ("reaction", lambda o: not o["sacred_games"], "sacred", False),
    ("conflict", lambda o: o["tlatoani"] and o["tied"], "tlatoani", True),
    ("scoring", lambda o: o["wild"], "wild", True),
    ("scoring", lambda o: o["rafts"] and o["rafts_pairs"], "rafts", True)],
    ids=["eagle", "sacred", "no-sacred", "tlatoani", "wild", "rafts"])
def test_example_orders_use_a_card_only_when_legal(record, kind, offered, word, shown):
    """A mail tells what is expected at the moment it is sent: at the first moment of the
    game where a seat may (or may not) play the card, the examples offer it (or not) and
    are legal."""
    state, upto = replay_until(record, lambda s: _owing(s, kind, offered) is not None, f"a {kind} with {word}")
    seat = _owing(state, kind, offered)
    expected = next_step({**record, "orders": record["orders"][:upto]}, seat)
    assert any(word in text.split() for text in expected["orders"]) == shown, expected["orders"]
    _check_examples(state, seat, expected, f"{kind} with {word}")


def test_a_seats_report_built_in_the_set_equals_the_one_built_alone(record):
    """The report worker builds every seat's report of a milestone from one replay and one
    board drawing (content.Moment); each seat's must be the report it gets built alone."""
    state = replay(record)
    assert check_set_equals_alone(record) == len(state.seats) * len(state.milestones())  # reports and notices
