"""The board and the public pages of a moment are drawn once and replayed for the other seats
(pbem/reports/recorded.py): a seat's PDF is the same, byte for byte, whether they were
replayed or drawn for it, and a drawing a replay would not reproduce is drawn every time."""
import logging

import pydyf
import pytest

from pbem.reports import Moment, Position, recorded, render, render_pdf


def _stream():
    """An empty page stream of WeasyPrint's, as it writes a PDF page into."""
    from weasyprint.pdf.stream import Stream

    resources = pydyf.Dictionary({"ExtGState": pydyf.Dictionary(), "XObject": pydyf.Dictionary(),
                                  "Pattern": pydyf.Dictionary(), "Shading": pydyf.Dictionary(),
                                  "ColorSpace": b"1 0 R"})
    return Stream({}, (0, 0, 100, 100), resources, {}, None, {}, None, compress=False)


def _pdfs(record, age, page_size, *, replayed):
    moment, now = Moment.of_round(record, age), Position(record)
    render.forget_shared_layouts()
    pdfs = []
    for seat in moment.seats:
        if not replayed:
            render.forget_shared_layouts()  # nothing kept: every seat's PDF drawn whole
        context = moment.report(seat, title="T")
        context["next"] = now.next_step(seat, title="T")
        pdfs.append(render_pdf(context, page_size=page_size))
    return pdfs


@pytest.mark.parametrize("age, page_size", [(2, "A4"), (3, "Letter"), (5, "A4")])  # 5: the final report
def test_a_replayed_drawing_gives_the_same_pdf_as_drawing_it(record, age, page_size):
    assert _pdfs(record, age, page_size, replayed=True) == _pdfs(record, age, page_size, replayed=False)


def test_the_first_seat_records_the_board_and_public_pages_and_the_others_replay_them(record, monkeypatch):
    made, replayed = [], []
    record_drawing, replay = recorded._record, recorded._replay
    monkeypatch.setattr(recorded, "_record", lambda *args: made.append(1) or record_drawing(*args))
    monkeypatch.setattr(recorded, "_replay", lambda *args: replayed.append(1) or replay(*args))
    moment, now = Moment.of_round(record, 2), Position(record)
    render.forget_shared_layouts()
    for i, seat in enumerate(moment.seats):
        context = moment.report(seat, title="T")
        context["next"] = now.next_step(seat, title="T")
        render_pdf(context)
        if i == 0:
            first = len(made)
    assert first >= 2  # the board and at least one public page
    assert len(made) == first  # the other seats drew none of them again
    assert len(replayed) == first * len(moment.seats)


def test_a_drawing_is_replayed_as_it_was_drawn():
    calls = []

    def draw(stream):
        calls.append(1)
        stream.set_color_rgb(0.5, 0.25, 0)
        stream.rectangle(1, 2, 3, 4)
        stream.fill()

    recorded.forget_recordings()
    for _ in range(2):  # two pages in the same state
        replayed, drawn = _stream(), _stream()
        recorded.draw_once(replayed, "square", draw)
        draw(drawn)
        assert replayed.data == drawn.data
    assert len(calls) == 3  # recorded once, drawn twice


def test_a_drawing_that_warns_is_drawn_each_time():
    calls = []

    def draw(stream):
        calls.append(1)
        stream.rectangle(1, 2, 3, 4)
        stream.fill()
        logging.getLogger("weasyprint").warning("a glyph no font has")

    recorded.forget_recordings()
    stream = _stream()
    recorded.draw_once(stream, "warns", draw)
    recorded.draw_once(stream, "warns", draw)
    assert len(calls) == 4  # each time into the scratch stream, then into the stream itself
    assert stream.data.count(b" re\n") == 2
