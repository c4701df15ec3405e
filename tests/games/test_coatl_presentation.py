"""Cóatl's presentation (pbem/games/coatl): the board picture of a position set up directly,
the BOARD and HAND answers with every card in words, event sentences, and that no answer
for a seat tells it another seat's hand or secret temple."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from engine.coatl import GAME
from pbem.games import presentation
from pbem.reports.render import trusted_svg
from tests.engine.coatl.coatl_support import coatl, new_game, position

SHOWN = presentation("coatl")
NAMES = {"macaw": "Ana", "quetzal": "Bo", "heron": "Cy"}


def set_up():
    """Ana (macaw) has a finished and an unfinished cóatl and a board; Bo a head; Cy committed
    temple 5.  The supply is as the seed drew it."""
    state = position(3, boards={0: "Yh Rb Rb Kt Gb", 1: "Bh"},
                     coatls={0: [coatl("YRRKY", complete=True, points=14, prophecies=[2, 17], temple=7),
                                 coatl("GBB", tail=False, prophecies=[10])]},
                     hands={0: [3, 12], 1: [40, 41], 2: [22]}, temples={0: [1], 1: [2], 2: [3, 5]},
                     row=[6, 11, 36, 45, 18, 26], commons=([8], [12]))
    state.players[2].committed = [5]
    return state


def drawn_pieces(svg: str) -> list[str]:
    return re.findall(r'class="piece" data-piece="(\w) (\w+)"', svg)


def view_pieces(view) -> list[tuple[str, str]]:
    """Every piece a view holds: the supply's, each board's and each cóatl's, as (letter, kind)."""
    letters = {"yellow": "Y", "red": "R", "black": "K", "green": "G", "blue": "B"}
    texts = [p for spaces in view["supply"].values() for space in spaces if space for p in space]
    for seat in view["seats"]:
        texts += seat["board"] + [p for c in seat["coatls"] for p in c["pieces"]]
    return [(letters[t.split()[0]], t.split()[1]) for t in texts]


def test_the_picture_shows_every_piece_and_passes_the_reports_check():
    state = set_up()
    view = state.view("macaw")
    svg = SHOWN.board_svg(state, view, caption=True)
    assert trusted_svg(svg) is not None
    ET.fromstring(svg)  # well-formed
    assert sorted(drawn_pieces(svg)) == sorted(view_pieces(view))
    # Ana's finished cóatl, head to tail, and her board, in the order the view gives.
    assert ("Y", "head") in drawn_pieces(svg) and drawn_pieces(svg).count(("B", "body")) >= 2
    assert svg.count("<polygon") == sum(kind != "body" for _, kind in view_pieces(view))  # heads and tails shaped
    assert "complete, 14 points" in svg and "prophecies 10 · unfinished" in svg
    assert "committed temples 5" in svg and "Ana (macaw)" not in svg  # names come from the view (macaw)


def test_the_picture_escapes_names_from_the_view():
    state = set_up()
    view = state.view("macaw")
    view["seats"][0]["name"] = '<script>alert("x")</script> javascript:url(http://x)'
    svg = SHOWN.board_svg(state, view)
    assert "<script" not in svg and "javascript:" not in svg and trusted_svg(svg) is not None
    assert "&lt;script&gt;" in svg


def test_board_text_gives_the_supply_the_cards_in_words_and_each_cóatl_as_letters():
    state = set_up()
    text = SHOWN.board_text(state, state.view("quetzal"), NAMES)
    assert "  6 (a pair of yellow): in a row: no yellow, yellow, yellow, no yellow; 2 points once, 5 twice" in text
    assert "  8 (blue = black, 9 long): as many blue as black (at least one each); exactly 9 pieces" in text
    assert "Ana (macaw): 14 points, 2 prophecies in hand, tokens pick, future, commit, to play." in text
    assert "  board: heads Y; bodies G R R; tails K" in text
    assert "  cóatl 1: head Y - R R K - tail Y (complete, 14 points; prophecies 2 and 17, temple 7)" in text
    assert "  cóatl 2: head G - B B - ... (unfinished; prophecies 10)" in text
    assert "  committed temple 5 (no red, 11 long)" in text
    supply = state.supply["body"][0]
    assert f"  body: 1 {' '.join(supply)}," in text


def test_board_text_tells_the_actions_of_a_final_turn_and_what_ends_the_game():
    """"Each other player will take one final turn", two actions for those later in turn order
    (docs/rules-coatl.md): BOARD says how many the reader has left, so one mail can carry both."""
    state = set_up()
    state.phase, state.turn, state.actions_left = "final", 0, 2
    state.trigger, state.final_turns = {"by": "coatl", "seat": 2}, [(1, 2)]
    text = SHOWN.board_text(state, state.view("macaw"), NAMES)
    assert "Ana (macaw): 14 points, 2 prophecies in hand, tokens pick, future, commit, to play (2 actions left)." in text
    assert ("The game end is triggered: Cy (heron) completed a third cóatl. "
            "Final turns after this one: Bo (quetzal) 2 actions.") in text
    state.phase, state.actions_left, state.trigger, state.final_turns = "play", 1, {"by": "bodies", "seat": 1}, []
    text = SHOWN.board_text(state, state.view("macaw"), NAMES)
    assert "to play." in text and ("The game end is triggered: no body segments are left; the round is played "
                                   "out, then everyone has a final turn.") in text


def test_hand_text_gives_the_readers_cards_in_words():
    state = set_up()
    text = SHOWN.hand_text(state.view("heron"))
    assert "Your prophecies:\n  22 (" in text
    assert "  3 (no green, 9 long): no green piece; exactly 9 pieces; 3 points for one condition met, 7 for both (secret)" in text
    assert "  5 (no red, 11 long)" in text and "(committed, face up)" in text


def test_a_prophecy_reads_as_the_games_options_select():
    state = position(2, hands={0: [45]}, options={"pair_gap": "any"})
    assert "black, yellow, any number of pieces (or none), yellow, black" in SHOWN.hand_text(state.view("macaw"))


@pytest.mark.parametrize("reader", ["quetzal", "heron", None])
def test_no_answer_tells_a_seat_another_seats_hand_or_secret_temple(reader):
    """Twin positions differing only in Ana's (macaw's) hand and secret temple."""
    twins = [set_up(), set_up()]
    twins[1].players[0].hand = [4, 44]
    twins[1].players[0].temples = [13]
    answers = []
    for state in twins:
        view = state.view(reader)
        answers.append((SHOWN.board_text(state, view, NAMES), SHOWN.hand_text(view),
                        SHOWN.board_svg(state, view), SHOWN.page_context(state, view),
                        [SHOWN.sentence(e, NAMES, state) for e in view["events"]]))
    assert answers[0] == answers[1]
    # ... while Ana herself is told her own.
    assert SHOWN.hand_text(twins[0].view("macaw")) != SHOWN.hand_text(twins[1].view("macaw"))


def test_setup_is_told_in_words_and_only_to_the_drawer():
    state = new_game(2, seed=3)
    mine = [SHOWN.sentence(e, NAMES, state) for e in state.view("macaw")["events"]]
    theirs = [SHOWN.sentence(e, NAMES, state) for e in state.view("quetzal")["events"]]
    assert mine[0].startswith("The game begins. Face-up prophecies: ") and mine[0] == theirs[0]
    dealt = sorted(state.players[0].dealt)
    assert mine[1] == f"You drew prophecies {', '.join(map(str, dealt[:-1]))} and {dealt[-1]} and your secret " \
                      f"temple {state.players[0].temples[0]}."
    assert not any(f"secret temple {state.players[0].temples[0]}" in line for line in theirs)
    assert "Your draw, to keep up to 3 from:" in SHOWN.hand_text(state.view("macaw"))
    assert not SHOWN.is_news(state.view("macaw")["events"][1], "quetzal")


def test_first_order_plays_whole_games_and_every_event_reads_as_a_sentence():
    for seed in (1, 2):
        state = new_game(3, seed=seed)
        for _ in range(3000):
            if state.is_over():
                break
            [decision] = state.view(state.seats[state.waiting()[0]])["me"]["decisions"]
            state.submit(decision["seat"], state.parse(SHOWN.first_order(decision)))
        assert state.is_over()
        lines = [SHOWN.sentence(e, NAMES, state) for e in state.view("macaw")["events"]]
        assert lines[-1].startswith("The game is over: ")
        kinds = {e["type"] for e in state.view("macaw")["events"]}
        assert {"take", "choose", "replenish", "game-over"} <= kinds
        for event, line in zip(state.view("macaw")["events"], lines):
            assert line.endswith(".") and event["type"].replace("-", " ").capitalize() + "." != line


def test_a_completed_cóatl_and_the_end_read_as_sentences():
    complete = {"type": "complete", "seat": "macaw", "coatl": 2, "points": 12, "temple": 7, "prophecies": [2, 17]}
    assert SHOWN.sentence(complete, NAMES, None) == "Ana completed cóatl 2 with prophecies 2 and 17 and temple 7: 12 points."
    trigger = {"type": "end-triggered", "by": "coatl", "seat": "bo"}
    assert SHOWN.sentence(trigger, NAMES, None) == "bo completed a third cóatl: the final turns follow."
    pick = {"type": "sacrifice", "seat": "heron", "token": "pick", "pieces": ["red body", "blue body"]}
    assert SHOWN.sentence(pick, NAMES, None) == "Cy sacrificed for a Perfect Pick: red body and blue body."
    assert GAME.name == SHOWN.game
