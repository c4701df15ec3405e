"""Cóatl's decision forms (pbem/games/coatl/forms.py): the choices a form offers are the legal
ones, every order the bots play can be sent with them, the posted fields make the order text
a mail would carry, and malformed fields are refused with a clear error."""
from __future__ import annotations

import re

import pytest
from werkzeug.datastructures import MultiDict

from engine.coatl import GAME
from engine.coatl.bots import Seat
from engine.coatl.orders import to_text
from engine.core import OrderError
from pbem.games import presentation
from pbem.games.coatl import forms
from tests.engine.coatl.coatl_support import coatl, new_game, position
from tests.games.coatl_form_fields import form_fields, posted

SHOWN = presentation("coatl")


def values(pairs) -> list:
    return [value for value, _ in pairs]


def check_offered(choices: dict, fields: dict) -> None:
    """Every value the fields use is one the form offers."""
    kind = choices["kind"]
    if kind == "keep":
        assert set(map(int, fields["keep"])) <= set(values(choices["dealt"]))
        return
    if kind == "choose":
        assert set(map(int, fields["discard"])) <= set(values(choices["hand"]))
        assert set(map(int, fields["card"])) <= set(values(choices["row"]))
        assert int(fields["deck"]) in [0, *choices["deck_counts"]]
        return
    action = fields["action"]
    if action == "take":
        assert fields["take"] in values(choices["take"])
    elif action == "choose":
        assert set(map(int, fields["card"])) <= set(values(choices["row"]))
        assert int(fields["deck"]) in [0, *choices["deck_counts"]]
    elif action == "sacrifice":
        assert fields["sacrifice"] in values(choices["sacrifice"])
    elif action == "assemble":
        assert len(fields["steps"]) <= choices["rows"]
        for step in fields["steps"]:
            assert step["do"] in values(choices["steps"]), (step, choices["steps"])
            if "piece" in step:
                assert step["piece"] in values(choices["pieces"])
            assert set(map(int, step.get("card", []))) <= set(values(choices["hand"]))
            if step.get("temple"):
                assert int(step["temple"]) in values(choices["temples"])


def check_exactly_legal(state, s: int, choices: dict) -> None:
    """The supply spaces and Sacrifice tokens offered are exactly those the seat may use."""
    options = state.decisions()[0].options
    assert values(choices["take"]) == [f"{kind} {space}" for kind in ("head", "body", "tail")
                                       for space in options["take"][kind]]
    legal = {to_text(order).removeprefix("sacrifice ") for order in Seat(state, s).sacrifices()}
    assert set(values(choices["sacrifice"])) == legal
    for value in values(choices["take"]) + values(choices["sacrifice"]):
        text = f"take {value}" if value[0] in "hbt" else f"sacrifice {value}"
        state.clone().submit(state.seats[s], state.parse(text))  # each one is legal as it stands


@pytest.mark.parametrize("bots,seed", [(("heuristic", "random"), 1), (("random", "heuristic"), 2),
                                       (("heuristic", "heuristic", "random"), 3)])
def test_every_bot_order_of_whole_games_is_sent_with_the_choices_offered(bots, seed):
    state = new_game(len(bots), seed=seed)
    players = [GAME.make_bot(kind, seed) for kind in bots]
    for _ in range(2000):
        if state.is_over():
            break
        s = state.waiting()[0]
        view = state.view(state.seats[s])
        choices = forms.choices(view)
        order = players[s].order(state, s)
        fields = form_fields(choices["kind"], order)
        check_offered(choices, fields)
        if choices["kind"] == "turn":
            check_exactly_legal(state, s, choices)
        text = SHOWN.form_orders(MultiDict(posted(fields)))
        assert state.parse(text) == [order], (text, order)
        state.apply(state.seats[s], order)
    assert state.is_over()


def test_no_form_is_offered_to_a_seat_that_owes_nothing():
    state = position(2)
    assert forms.choices(state.view("quetzal")) is None and forms.choices(state.view(None)) is None


def test_keep_offers_the_dealt_cards_and_none_is_a_choice():
    state = new_game(2, seed=4)
    choices = forms.choices(state.view("macaw"))
    assert values(choices["dealt"]) == sorted(state.players[0].dealt) and choices["keep_at_most"] == 3
    assert forms.order_text(MultiDict([("kind", "keep")])) == "keep none"
    dealt = [str(card) for card in sorted(state.players[0].dealt)[:2]]
    assert forms.order_text(MultiDict([("kind", "keep"), *(("keep", card) for card in dealt)])) == f"keep {' '.join(dealt)}"


def test_the_assembly_offers_the_readers_pieces_hand_temples_and_the_cóatls_it_may_name():
    """Ana has an unfinished cóatl 1 (green head, blue bodies) and a complete one; a new cóatl
    would be cóatl 3, the last a player may make."""
    state = position(2, boards={0: "Yh Rb Rb Kt"}, hands={0: [3, 12]}, temples={0: [1]}, commons=([8], [12]),
                     coatls={0: [coatl("GBB", tail=False, prophecies=[10]),
                                 coatl("YRRKY", complete=True, points=14, prophecies=[2], temple=7)]})
    choices = forms.choices(state.view("macaw"))
    assert choices["pieces"] == [("yellow head", 1), ("red body", 2), ("black tail", 1)]
    assert values(choices["hand"]) == [3, 12] and values(choices["temples"]) == [1, 8, 12]
    assert values(choices["steps"]) == ["new", "add-1", "front-1", "fulfil-1", "complete-1",
                                        "add-3", "front-3", "fulfil-3", "complete-3"]
    assert choices["hand_room"] == 3 and choices["deck_counts"] == [1, 2, 3]


def test_an_empty_board_offers_no_piece_step_and_a_full_hand_no_choice():
    state = position(2, hands={0: [3, 12, 20, 21, 22]}, coatls={0: [coatl("GB", tail=False)]})
    choices = forms.choices(state.view("macaw"))
    assert values(choices["steps"]) == ["fulfil-1"]
    assert choices["row"] == [] and choices["deck_counts"] == [] and choices["hand_room"] == 0


def test_an_assembly_reads_as_the_mail_grammar():
    form = MultiDict([("kind", "turn"), ("action", "assemble"), ("take", "body 2"),  # another section's field
                      ("step-1-do", "new"), ("step-1-piece", "red head"),
                      ("step-2-do", "add-1"), ("step-2-piece", "blue body"),
                      ("step-3-do", "front-1"), ("step-3-piece", "black body"),
                      ("step-4-do", ""), ("step-4-piece", "green tail"),  # a row left blank
                      ("step-5-do", "add-1"), ("step-5-piece", "green tail"),
                      ("step-6-do", "fulfil-1"), ("step-6-card", "12"), ("step-6-card", "31"),
                      ("step-7-do", "complete-1"), ("step-7-temple", "7")])
    text = forms.order_text(form)
    assert text == ("new red head; add blue body to 1; add black body to 1 front; add green tail to 1; "
                    "fulfil 12 31 on 1; complete 1 with temple 7")
    assert len(new_game().parse(text)) == 1  # one Assemble action


@pytest.mark.parametrize("pairs,text", [
    ([("action", "take"), ("take", "head 2")], "take head 2"),
    ([("action", "choose"), ("card", "12"), ("card", "31"), ("deck", "1")], "choose 12 31 deck 1"),
    ([("action", "choose"), ("deck", "2")], "choose deck 2"),
    ([("action", "pass"), ("take", "body 1")], "pass"),
    ([("action", "sacrifice"), ("sacrifice", "pick body")], "sacrifice pick body"),
    ([("action", "sacrifice"), ("sacrifice", "commit 7")], "sacrifice commit 7"),
    ([("action", "assemble"), ("step-1-do", "complete-2")], "complete 2"),
])
def test_each_turn_action_reads_as_its_order(pairs, text):
    assert forms.order_text(MultiDict([("kind", "turn"), *pairs])) == text


def test_see_the_future_discards_then_chooses():
    form = MultiDict([("kind", "choose"), ("discard", "3"), ("discard", "12"), ("card", "40"), ("deck", "1")])
    assert forms.order_text(form) == "discard 3 12; choose 40 deck 1"
    assert forms.order_text(MultiDict([("kind", "choose"), ("deck", "0")])) == "choose none"


@pytest.mark.parametrize("pairs,error", [
    ([("kind", "turn")], "choose an action: take, choose, assemble, pass, sacrifice"),
    ([("kind", "turn"), ("action", "take")], "choose a supply space to take"),
    ([("kind", "turn"), ("action", "take"), ("take", "body 3; pass")], "take: a supply space is a kind and a number"),
    ([("kind", "turn"), ("action", "choose"), ("deck", "0")], "tick the face-up prophecies you take"),
    ([("kind", "turn"), ("action", "choose"), ("deck", "-1")], "deck: how many cards from the deck"),
    ([("kind", "turn"), ("action", "choose"), ("card", "x")], "card: prophecy cards are given by their numbers"),
    ([("kind", "turn"), ("action", "assemble")], "choose at least one assembly step (or pass)"),
    ([("kind", "turn"), ("action", "assemble"), ("step-1-do", "explode-1")], "step 1: unknown step"),
    ([("kind", "turn"), ("action", "assemble"), ("step-2-do", "new")], "step 2: choose the piece from your board"),
    ([("kind", "turn"), ("action", "assemble"), ("step-1-do", "add-1"), ("step-1-piece", "pink head")],
     "step 1: choose the piece from your board"),
    ([("kind", "turn"), ("action", "assemble"), ("step-1-do", "front-1"), ("step-1-piece", "red head")],
     "step 1: only a body is added at the front by choice"),
    ([("kind", "turn"), ("action", "assemble"), ("step-1-do", "fulfil-1")], "step 1: tick the prophecies cóatl 1 fulfils"),
    ([("kind", "turn"), ("action", "assemble"), ("step-1-do", "complete-1"), ("step-1-temple", "7 or 8")],
     "step 1: a temple is given by its number"),
    ([("kind", "turn"), ("action", "sacrifice")], "choose the Sacrifice token to use"),
    ([("kind", "turn"), ("action", "sacrifice"), ("sacrifice", "everything")], "sacrifice: pick KIND, future or commit N"),
    ([("kind", "keep"), ("keep", "12; pass")], "keep: prophecy cards are given by their numbers"),
    ([("kind", "bid")], "unknown kind of form"),
])
def test_malformed_fields_are_refused_with_a_clear_error(pairs, error):
    with pytest.raises(OrderError) as refused:
        forms.order_text(MultiDict(pairs))
    assert str(refused.value).startswith(error)


def test_the_free_text_form_is_taken_as_written():
    assert forms.order_text(MultiDict([("kind", "text"), ("orders", "take body 1\n")])) == "take body 1\n"


def test_the_picture_makes_the_takeable_spaces_and_the_readers_own_pieces_clickable():
    state = position(2, boards={0: "Yh Rb Rb Kt", 1: "Bh"})
    view = state.view("macaw")
    svg = SHOWN.board_svg(state, view, clickable=True)
    clicked = re.findall(r'data-territory="([^"]+)"', svg)
    takes = [f"{kind} {space}" for kind, spaces in view["me"]["decisions"][0]["options"]["take"].items()
             for space in spaces]
    assert takes and sorted(clicked) == sorted(takes + ["yellow head", "red body", "red body", "black tail"])
    assert "blue head" not in clicked  # Bo's piece
    assert "<style>" in svg and 'stroke-width="2.5"' in svg  # the heavy frames of takeable spaces
    # Not clickable: the seat not to play, a spectator, and any picture for mails and reports.
    for drawn in (SHOWN.board_svg(state, state.view("quetzal"), clickable=True),
                  SHOWN.board_svg(state, state.view(None), clickable=True), SHOWN.board_svg(state, view)):
        assert "data-territory" not in drawn and "<style>" not in drawn


def test_without_sacrifice_tokens_no_sacrifice_is_offered():
    state = position(2, boards={0: "Yh Rb"}, options={"sacrifice_tokens": "off"})
    assert forms.choices(state.view("macaw"))["sacrifice"] == []
    assert forms.choices(position(2, boards={0: "Yh Rb"}).view("macaw"))["sacrifice"]  # on by default
