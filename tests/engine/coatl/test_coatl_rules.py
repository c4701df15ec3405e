"""One test per rule of Cóatl, in the style of the DATC: the rule text as the docstring, the
position set up directly (tests/engine/coatl/coatl_support.py), the result checked.  Where
the rulebook is unclear and pbem decided, the docstring says "pbem reading" (the readings are
in docs/rules-coatl.md)."""
from __future__ import annotations

from collections import Counter

import pytest

from engine.coatl.orders import Assemble, Choose, Keep, Take
from engine.coatl.state import FINAL, OVER, PLAY
from engine.core import IllegalOrderError, NotYourDecisionError
from tests.engine.coatl.coatl_support import coatl, events, new_game, pieces, play, position


def refused(state, text, match):
    """The order is refused with `match` in its message and nothing changes."""
    before = [state.view(seat) for seat in (*state.seats, None)]
    with pytest.raises(IllegalOrderError, match=match):
        play(state, text)
    assert [state.view(seat) for seat in (*state.seats, None)] == before


# ---- setup ------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_draws_three_to_six_prophecies_by_seat(players):
    """"Draw and reveal 6 Prophecy cards to form a faceup supply. Deal 3/4/5/6 Prophecy cards to
    the 1st/2nd/3rd/4th player." "Shuffle the Temple cards and deal 1 to each player ... Divide
    the remaining cards into 2 faceup piles.\""""
    state = new_game(players)
    assert len(state.row) == 6
    assert [len(p.dealt) for p in state.players] == [3, 4, 5, 6][:players]
    assert [len(p.temples) for p in state.players] == [1] * players
    assert len(state.commons()) == 2 and sum(map(len, state.piles)) == 15 - players
    assert len(state.deck) == 54 - 6 - sum(range(3, 3 + players))


def test_setup_keeps_up_to_three_secretly():
    """"Each player chooses up to 3 Prophecy cards to keep in their hand, and discards the rest.
    These cards are hidden information.\""""
    state = new_game(2)
    dealt = sorted(state.players[1].dealt)
    with pytest.raises(IllegalOrderError, match="at most 3"):
        state.apply("quetzal", Keep(tuple(dealt[:4])))
    state.apply("quetzal", Keep(tuple(dealt[:2])))
    assert state.view("macaw")["seats"][1]["hand_size"] == 0  # nothing shows until all have kept
    assert "kept" not in str(state.view("macaw")["me"]["kept"])
    state.apply("macaw", Keep(()))
    assert state.players[1].hand == dealt[:2] and state.view("macaw")["seats"][1]["hand_size"] == 2
    assert len(state.discard) == 3 + 2
    assert state.phase == PLAY and state.waiting() == [0]


# ---- take pieces ------------------------------------------------------------------------------

def test_taking_a_body_space_takes_both_segments():
    """"Choose one space of the Supply board (1 head, 1 tail, or 2 body segments) and add its
    contents to your Player board. If you choose a space containing body segments, you must take
    both of them.\""""
    state = position()
    content = list(state.supply["body"][2])
    play(state, "take body 3")
    assert Counter(state.players[0].board) == Counter((colour, "body") for colour in content)
    assert state.supply["body"][2] is None and state.waiting() == [1]


def test_taking_needs_room_on_the_player_board():
    """"Each player board can hold up to 8 pieces." "You must have room on your Player board for
    the piece(s) you wish to take.\""""
    state = position(boards={0: "Rb Rb Rb Rb Rb Rb Rb"})
    refused(state, "take body 1", "room for 1 more piece")
    play(state, "take head 1")
    assert len(state.players[0].board) == 8


def test_the_supply_is_replenished_when_its_bodies_are_gone():
    """"Replenish the Supply board whenever its supply of body segments is emptied OR its supply
    of heads and tails are emptied. Fill all empty spaces of the Supply board.\""""
    state = position()
    state.supply["body"] = [None] * 5 + [["R", "Y"]]
    state.supply["head"][0] = None
    play(state, "take body 6")
    assert all(space and len(space) == 2 for space in state.supply["body"])
    assert state.supply["head"][0] is not None  # every empty space, heads too
    assert events(state, "replenish")


def test_the_supply_is_replenished_when_heads_and_tails_are_gone():
    """Same rule: the heads and tails emptied; not when only the heads are."""
    state = position()
    state.supply["head"] = [None, None]
    state.supply["tail"] = [None, ["K"]]
    state.supply["body"][0] = None
    play(state, "take body 2")  # heads gone, a tail left: no refill
    assert state.supply["head"] == [None, None] and state.supply["body"][0] is None
    play(state, "take tail 2")
    assert all(state.supply["head"]) and all(state.supply["tail"]) and all(state.supply["body"])


def test_a_short_bag_fills_as_many_spaces_as_it_can():
    """"If there are not enough pieces to fill all supply spaces, fill as many as possible
    (always 2 body segments per space), and continue playing.\""""
    state = position()
    state.bags["body"] = ["R", "G", "B", "Y"]
    state.supply["body"] = [None] * 5 + [["K", "K"]]
    play(state, "take body 6")
    assert sum(space is not None for space in state.supply["body"]) == 2 and state.bags["body"] == []
    assert state.trigger is None


# ---- choose prophecy cards --------------------------------------------------------------------

def test_choosing_respects_the_hand_limit_and_refills_the_row():
    """"Choose one or more Prophecy cards from those in the supply and/or from the top of the
    Prophecy deck ... you cannot exceed the 5-card hand limit." "Once you have finished your
    turn, reveal Prophecy cards from the deck to refill the faceup supply to 6 cards.\""""
    state = position(hands={0: [1, 2]}, row=[10, 11, 12, 13, 14, 15])
    refused(state, "choose 10 11 deck 2", "6 prophecies in your hand; the limit is 5")
    deck = len(state.deck)
    play(state, "choose 10 11 deck 1")
    assert sorted(state.players[0].hand)[:4] == [1, 2, 10, 11] and len(state.players[0].hand) == 5
    assert len(state.row) == 6 and state.row[:4] == [12, 13, 14, 15] and len(state.deck) == deck - 3


def test_a_deck_draw_is_seen_only_by_the_drawer():
    """Hidden information: "These cards are hidden information" (the hand); others learn only
    how many were drawn."""
    state = position()
    play(state, "choose deck 2")
    drawn = state.players[0].hand
    assert events(state, "drawn", reader=0)[0]["cards"] == drawn
    assert events(state, "drawn", reader=1) == [] and events(state, "drawn") == []
    assert state.view("quetzal")["seats"][0]["hand_size"] == 2 and "hand" not in state.view("quetzal")["seats"][0]


def test_choosing_takes_at_least_one_card():
    """"Choose one or more Prophecy cards": 'choose none' is no Choose action."""
    state = position(hands={0: [1, 2, 3, 4, 5]})
    refused(state, "choose none", "at least one prophecy")


# ---- assembly ---------------------------------------------------------------------------------

def test_a_new_coatl_and_additions_at_its_ends():
    """"Begin a new Cóatl: Take any piece from your Player board and place it on the table."
    "Add to an existing Cóatl: attach it to one end of one of your incomplete Cóatl.\""""
    state = position(boards={0: "Yb Rb Gb Bh"})
    play(state, "new yellow body; add red body to 1; add green body to 1 front; add blue head to 1")
    assert state.players[0].coatls[0].letters == "BGYR" and state.players[0].board == []


def test_at_most_two_unfinished_coatls():
    """"You cannot do this Assembly action if you already have 2 incomplete Cóatls.\""""
    state = position(boards={0: "Yb Rb Gb"})
    refused(state, "new yellow body; new red body; new green body", "already have 2 unfinished")


def test_at_most_three_coatls_in_all():
    """Component data: "3 cóatls per player" (the third completed ends the game).  pbem reading:
    a fourth cannot be begun."""
    done = [coatl("RYB", complete=True, prophecies=[16]) for _ in range(2)]
    state = position(boards={0: "Yb Rb"}, coatls={0: [*done, coatl("G", tail=False)]})
    refused(state, "new yellow body", "all 3 cóatls")


def test_one_head_and_one_tail_per_coatl():
    """"Although a Cóatl can have many body segments, it can have at most 1 head and 1 tail.\""""
    state = position(boards={0: "Yh Rh Gb"}, coatls={0: [coatl("BK", tail=False)]})
    refused(state, "add yellow head to 1", "already has a head")
    refused(state, "add green body to 1 front", "ends in a head at its front")


def test_a_body_between_head_and_tail():
    """"To complete a Cóatl, it must have 1 head, 1 tail, and at least 1 body part.\""""
    state = position(boards={0: "Yh Rt"}, hands={0: [1]})
    refused(state, "new yellow head; add red tail to 1", "at least one body segment")


def test_a_prophecy_is_fulfilled_only_when_met():
    """"If the Cóatl does not satisfy a card's requirements, that card cannot be played.\""""
    state = position(boards={0: "Bb"}, hands={0: [5, 16]}, coatls={0: [coatl("BB", tail=False)]})
    refused(state, "fulfil 5 on 1", "does not meet prophecy 5")
    play(state, "add blue body to 1; fulfil 5 on 1")
    assert state.players[0].coatls[0].prophecies == [5] and state.players[0].hand == [16]


def test_no_identical_prophecies_on_one_coatl():
    """"A Cóatl cannot be used to fulfill identical Prophecy cards." (card 1 has two copies)"""
    state = position(hands={0: [1, 1]}, coatls={0: [coatl("YYY", tail=False)]})
    refused(state, "fulfil 1 1 on 1", "identical prophecies")


def test_at_most_four_prophecies_per_coatl():
    """"You need 1 to 4 Prophecy cards to complete a Cóatl.\""""
    state = position(hands={0: [5, 10, 15, 29, 20]},
                     coatls={0: [coatl("BBRBBKBBBYY", tail=False, prophecies=[])]})
    play(state, "fulfil 5 10 15 29 on 1")
    state = position(hands={0: [5, 10, 15, 29, 20]},
                     coatls={0: [coatl("BBRBBKBBBYY", tail=False, prophecies=[5, 10, 15, 29])]})
    refused(state, "fulfil 20 on 1", "already fulfils 4 prophecies")


def test_an_unfinished_end_is_no_boundary_for_a_pair():
    """The red X: "the piece in this position is either of a different color or there is no
    piece in this position."  pbem reading (open_ends=closed-only): only a head or a tail
    closes an end; an unfinished end may still grow."""
    state = position(hands={0: [9]}, coatls={0: [coatl("RGG", tail=False)]})
    refused(state, "fulfil 9 on 1", "does not meet prophecy 9")


def test_option_open_ends_counts_an_unfinished_end():
    """Option open_ends=any-end: "there is no piece in this position" read literally."""
    state = position(options={"open_ends": "any-end"}, hands={0: [9]}, coatls={0: [coatl("RGG", tail=False)]})
    play(state, "fulfil 9 on 1")
    assert state.players[0].coatls[0].prophecies == [9]


def test_completing_needs_a_prophecy_and_fulfils_a_temple_if_able():
    """"If your newly completed Cóatl has not fulfilled any Prophecy cards, it must fulfill at least
    one during this step." "Fulfill one of the Temple cards from your hand or the common piles
    with your newly completed Cóatl, if able." "Announce the point value.\""""
    state = position(boards={0: "Yh Rb Kt"}, hands={0: [16, 17]}, temples={0: [4]}, commons=([1], [5]))
    build = "new yellow head; add red body to 1; add black tail to 1"
    refused(state, f"{build}; complete 1", "at least one prophecy")
    refused(state, f"{build}; fulfil 17 on 1; complete 1", "can fulfil temple 4")
    refused(state, f"{build}; fulfil 17 on 1; complete 1 with temple 1", "meets no requirement of temple 1")
    play(state, f"{build}; fulfil 17 on 1; complete 1 with temple 4")
    done = state.players[0].coatls[0]
    assert done.complete and done.temple == 4 and done.points == 1 + 3  # one red-black; no blue
    assert state.view(None)["seats"][0]["coatls"][0]["points"] == 4
    assert events(state, "complete")[0]["points"] == 4 and state.players[0].temples == []


def test_a_closed_coatl_must_be_completed_in_the_same_action():
    """"Upon completing one of your Cóatl, perform the following steps before continuing your
    turn." pbem reading: the cóatl that gets its head and tail is completed with 'complete N'
    before any other step."""
    state = position(boards={0: "Yh Rb Kt Gb"}, hands={0: [17]})
    refused(state, "new yellow head; add red body to 1; add black tail to 1", "finish it with 'complete 1'")
    refused(state, "new yellow head; add red body to 1; add black tail to 1; new green body", "only 'fulfil")


def test_option_temple_optional():
    """Option temple=optional: "if able" read as a permission."""
    state = position(options={"temple": "optional"}, boards={0: "Yh Rb Kt"}, hands={0: [17]},
                     temples={0: [4]}, commons=([1], [5]))
    play(state, "new yellow head; add red body to 1; add black tail to 1; fulfil 17 on 1; complete 1")
    assert state.players[0].coatls[0].temple is None and state.players[0].temples == [4]


def test_a_common_temple_leaves_its_pile_and_the_next_is_turned_up_after_the_action():
    """"Divide the remaining cards into 2 faceup piles." pbem reading: the next card of a pile is
    turned up once the action is over, so one order can be planned from what is face up."""
    state = position(boards={0: "Yh Rb Kt"}, hands={0: [17]}, temples={0: [1]}, commons=([9, 4], [2]))
    play(state, "new yellow head; add red body to 1; add black tail to 1; fulfil 17 on 1; complete 1 with temple 4")
    assert state.commons() == [9, 2]


def test_pieces_never_move():
    """"Once placed, Cóatl pieces cannot be moved or removed." An illegal step anywhere in an
    assembly leaves every piece where it was."""
    state = position(boards={0: "Yb Rb"}, coatls={0: [coatl("GG", head=False, tail=False)]})
    refused(state, "add yellow body to 1; add red head to 1", "no red head")
    assert state.players[0].coatls[0].letters == "GG" and len(state.players[0].board) == 2


# ---- the end ----------------------------------------------------------------------------------

COMPLETE_THIRD = "new yellow head; add red body to 3; add black tail to 3; fulfil 17 on 3; complete 3"


def third_coatl_position(players, trigger):
    """Seat `trigger` can complete its 3rd cóatl this turn."""
    done = [coatl("RYB", complete=True, prophecies=[16], points=1) for _ in range(2)]
    return position(players, turn=trigger, boards={trigger: "Yh Rb Kt"}, hands={trigger: [17]},
                    temples={trigger: []}, coatls={trigger: done}, commons=([1], [5]))


def test_the_third_coatl_ends_the_game_with_two_actions_after_and_one_before():
    """"Example: There are 4 players. Player 2 completes their 3rd Cóatl and triggers game end.
    Players 3 and 4 can each perform two actions on their final turn. Player 1 only performs one
    action on their final turn. Player 2 does not take another turn. The game ends.\""""
    state = third_coatl_position(4, 1)
    play(state, COMPLETE_THIRD)
    assert state.phase == FINAL and state.trigger == {"by": "coatl", "seat": 1}
    seen = []
    while not state.is_over():
        s = state.waiting()[0]
        seen.append((s, state.actions_left))
        state.apply(state.seats[s], Assemble(()))
    assert seen == [(2, 2), (2, 1), (3, 2), (3, 1), (0, 1)]
    assert state.phase == OVER and state.milestones()[-1].scored


def test_the_last_seat_triggering_leaves_everyone_one_action():
    """"If you are earlier in turn order than the player who triggered the game end, you perform
    only one action on your final turn.\""""
    state = third_coatl_position(3, 2)
    play(state, COMPLETE_THIRD)
    assert state.final_turns == [(1, 1)] and (state.turn, state.actions_left) == (0, 1)


def test_an_empty_body_supply_plays_out_the_round_then_one_final_turn_each():
    """"If the game end is triggered due to an empty supply of body segments, continue playing
    until everyone has played the same number of turns (pay attention to the First Player
    marker). Then each player gets one final turn.\""""
    state = position(3, turn=1)
    state.bags["body"] = []
    state.supply["body"] = [None] * 5 + [["R", "R"]]
    play(state, "take body 6")
    assert state.trigger == {"by": "bodies", "seat": 1} and state.phase == PLAY
    seen = []
    while not state.is_over():
        s = state.waiting()[0]
        seen.append((state.phase, s, state.actions_left))
        state.apply(state.seats[s], Assemble(()))
    assert seen == [(PLAY, 2, 1), (FINAL, 0, 1), (FINAL, 1, 1), (FINAL, 2, 1)]


def test_a_later_trigger_changes_nothing():
    """pbem reading: the first trigger decides the final turns; a 3rd cóatl completed after the
    body supply ran out ends nothing sooner."""
    state = third_coatl_position(2, 0)
    state.trigger = {"by": "bodies", "seat": 1}
    play(state, COMPLETE_THIRD)
    assert state.trigger["by"] == "bodies" and state.phase == PLAY and state.waiting() == [1]


def test_a_round_of_passes_ends_the_game():
    """pbem reading (the rules are silent): when every seat in turn passes (an Assemble action
    that does nothing), nobody can or will act, and the game ends and is scored."""
    state = position(2)
    play(state, "pass")
    play(state, "pass")
    assert state.is_over() and events(state, "stalled")


# ---- scoring and tie-breaks -------------------------------------------------------------------

def finished(players, made):
    state = position(players, coatls=made)
    for s in range(players):
        state.turn = s
        state.apply(state.seats[s], Assemble(()))
    return state.result()


def test_only_completed_coatls_score():
    """"Each player scores prestige points for their completed Cóatl." An unfinished one scores
    nothing, its prophecies neither."""
    result = finished(2, {0: [coatl("RYB", complete=True, points=4, prophecies=[16]), coatl("BBB", tail=False,
                                                                                           prophecies=[5])],
                          1: [coatl("RYB", complete=True, points=3, prophecies=[16])]})
    assert result.scores == {"macaw": 4, "quetzal": 3} and result.winner == "macaw"
    assert result["coatls"]["macaw"]["unfinished"] == 1


def test_a_tie_goes_to_more_cards_beside_completed_coatls():
    """"In case of a tie, the player who has the most Prophecy and Temple cards placed next to
    their completed Cóatls wins.\""""
    result = finished(2, {0: [coatl("RYB", complete=True, points=5, prophecies=[16])],
                          1: [coatl("RYB", complete=True, points=5, prophecies=[16], temple=3)]})
    assert result.ranking == ("quetzal", "macaw") and result.tie_break == "cards-then-best-coatl"
    assert not result.shared


def test_then_to_the_single_best_coatl():
    """"If the tie persists, the player who has the single highest scoring Cóatl wins.\""""
    result = finished(2, {0: [coatl("RYB", complete=True, points=3, prophecies=[16]),
                              coatl("RYB", complete=True, points=3, prophecies=[17])],
                          1: [coatl("RYB", complete=True, points=5, prophecies=[16]),
                              coatl("RYB", complete=True, points=1, prophecies=[17])]})
    assert result.ranking == ("quetzal", "macaw")


def test_a_tie_nothing_breaks_is_shared():
    """pbem reading: when cards and best cóatl are equal too, the place is shared."""
    result = finished(3, {0: [coatl("RYB", complete=True, points=5, prophecies=[16])],
                          1: [coatl("RYB", complete=True, points=5, prophecies=[16])]})
    assert result.places == {"macaw": 1, "quetzal": 1, "heron": 3} and result.winner is None


# ---- options ----------------------------------------------------------------------------------

def test_sacrifice_tokens_off():
    """"For your first game, it is suggested not to use Sacrifice tokens." (option off)"""
    state = position(options={"sacrifice_tokens": "off"})
    refused(state, "sacrifice future", "without Sacrifice tokens")


def test_perfect_pick_draws_from_the_bag_and_refills_every_empty_space():
    """"Perfect Pick: Draw 1 head, 1 tail, or 2 body segments of your choice from the
    corresponding bag, then refill all empty spaces of the Supply board.\""""
    state = position()
    state.supply["head"][1] = None
    bag = list(state.bags["body"])
    play(state, "sacrifice pick body")
    assert state.players[0].board == [(bag[-1], "body"), (bag[-2], "body")]
    assert state.supply["head"][1] is not None and "pick" not in state.players[0].tokens
    state.turn = 0  # its next turn
    refused(state, "sacrifice pick head", "already used your pick token")


def test_see_the_future_then_choose_after_discarding():
    """"See the Future: Discard all Prophecy cards in the faceup supply, then refill it. Discard
    any number of cards from your hand, then perform a 'Choose Prophecy cards' action.\""""
    state = position(hands={0: [1, 2, 3, 4, 5]})
    old_row = list(state.row)
    play(state, "sacrifice future")
    assert state.waiting() == [0] and state.decisions()[0].kind == "choose"
    assert set(old_row) <= set(state.discard) and len(state.row) == 6
    with pytest.raises(IllegalOrderError, match="the limit is 5"):
        state.apply("macaw", Choose((state.row[0],)))
    card = state.row[0]
    play(state, f"discard 1 2; choose {card}")
    assert sorted(state.players[0].hand) == sorted([3, 4, 5, card]) and state.waiting() == [1]


def test_priest_commitment_takes_a_face_up_temple():
    """"Priest Commitment: Take one of the faceup Temple card and add it to your hand. When
    completing a Cóatl, you can fulfill this personal Temple card instead of a common Temple
    card.\""""
    state = position(commons=([8, 3], [4]), temples={0: [1]})
    play(state, "sacrifice commit 3")
    assert state.players[0].temples == [1, 3] and state.commons() == [8, 4]
    assert state.view("quetzal")["seats"][0]["committed"] == [3]


def test_fewer_body_pieces():
    """Component data: "Optional fewer body pieces: 14 bodies per colour with 2 players, 18 with 3.\""""
    for players, per_colour in ((2, 14), (3, 18), (4, 24)):
        state = new_game(players, options={"body_pieces": "fewer"})
        on_board = sum(len(space) for space in state.supply["body"] if space)
        assert len(state.bags["body"]) + on_board == 5 * per_colour


def test_turn_orders_wait_for_the_seat_in_turn():
    """"Starting with the first player and proceeding clockwise, each player chooses one of the
    following actions to perform as their turn.\""""
    state = position(3)
    with pytest.raises(NotYourDecisionError, match="not your turn"):
        state.apply("quetzal", Take("body", 1))
    with pytest.raises(IllegalOrderError, match="asks you for your action"):
        state.apply("macaw", Keep(()))
    with pytest.raises(IllegalOrderError, match="only with See the Future"):
        state.apply("macaw", Choose((state.row[0],), 0, (1,)))
