"""The bit-mask helpers the rules and bots lean on, against their plain definitions."""
from __future__ import annotations

from hypothesis import given, strategies as st

from engine.aztlan.scoring import bits, nth_bit

MASKS = st.integers(min_value=0, max_value=(1 << 200) - 1)


@given(MASKS)
def test_bits_lists_the_set_bits_lowest_first(mask: int) -> None:
    assert bits(mask) == tuple(i for i in range(mask.bit_length()) if mask >> i & 1)


@given(MASKS, st.data())
def test_nth_bit_is_that_entry_of_bits(mask: int, data: st.DataObject) -> None:
    listed = bits(mask)
    if listed:
        k = data.draw(st.integers(min_value=0, max_value=len(listed) - 1))
        assert nth_bit(mask, k) == listed[k]
