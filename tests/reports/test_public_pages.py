"""An age's PDF is the reader's pages, then the public pages (docs/reports.md, "One layout of
the public pages"): the public pages are rendered from each reader's own context with no
reader's mark, so every seat of a moment gets the very same ones, laid out once.

The public part is shared only when its HTML is the very same; these tests check that it is
the same for every seat (else nothing is saved), that it holds nothing of the reader's, that
a twin game in which another seat's hand differs gives the same public part, and that the
merged PDF reads in order with its pages numbered as one document.
"""
import re

import pytest

from pbem.reports import Moment, Position, render_pdf
from pbem.reports import round_report as age_report
from pbem.reports import render
from pbem.reports.render import READER_PAGES, _render
from reports_helpers import pdf_info, pdf_text, squash, twin_record


def _public(context, page_size="A4"):
    return _render(context, "pdf", page_size, part="public", reader_pages=READER_PAGES)


def _seats(record):
    return [p["seat"] for p in record["players"]]


@pytest.mark.parametrize("age", [1, 2, 3, 4])
def test_every_seat_of_an_age_gets_the_same_public_pages(record, age):
    moment = Moment.of_round(record, age)
    pages = {seat: _public(moment.report(seat, title="T")) for seat in _seats(record)}
    assert len(set(pages.values())) == 1, f"the public pages of age {age} differ between seats"


@pytest.mark.parametrize("age", [1, 2, 3, 4])
def test_the_public_pages_hold_nothing_of_the_reader(record, age):
    for seat in _seats(record):
        context = age_report(record, seat, age, title="T")
        public = _public(context)
        assert 'class="me"' not in public and 'class="you"' not in public, (seat, age)
        assert "You drew" not in public and "Your hand" not in public, (seat, age)
        assert f"for {context['reader']['name']}" not in public, (seat, age)  # the running line
        for card in context["hand"]:  # the reader's hand is only on the reader's pages
            assert f"<b>{card['title']}</b><br>" not in public
        private = _render(context, "pdf", "A4", part="private", public_pages=2)
        assert "Your hand" in private and "power cards and points" not in private


def test_another_seats_hand_does_not_change_the_public_pages(record):
    age = 3
    seats = _seats(record)
    twins = next((twins for other in seats if (twins := twin_record(record, other, age))), None)
    assert twins, f"no twin game for age {age}"
    base, twin = twins
    for reader in seats:
        assert _public(age_report(base, reader, age, title="T")) == _public(age_report(twin, reader, age, title="T"))


def test_one_layout_of_the_public_pages_serves_every_seat_of_a_moment(record, monkeypatch):
    import weasyprint

    age = 2
    moment, now = Moment.of_round(record, age), Position(record)
    public_layouts = []

    class Counted(weasyprint.HTML):
        """WeasyPrint's HTML, counting the layouts of public pages (their running line)."""

        def render(self, *args, **kwargs):
            if self.public:
                public_layouts.append(self)
            return super().render(*args, **kwargs)

    real_init = weasyprint.HTML.__init__

    def init(self, *args, string=None, **kwargs):
        self.public = string is not None and f"age {age} · results" in string
        real_init(self, *args, string=string, **kwargs)

    monkeypatch.setattr(Counted, "__init__", init)
    monkeypatch.setattr(weasyprint, "HTML", Counted)
    render.forget_shared_layouts()
    for seat in _seats(record):
        context = moment.report(seat, title="T")
        context["next"] = now.next_step(seat, title="T")
        render_pdf(context)
    assert len(public_layouts) == 1  # the public pages once; each seat's own pages are laid out apart
    render_pdf(context, page_size="Letter")
    assert len(public_layouts) == 2  # another paper size is another layout


def test_the_pdf_reads_the_readers_pages_then_the_public_ones_numbered_as_one(record, tmp_path):
    seat = _seats(record)[1]
    context = age_report(record, seat, 2, title="Friday")
    context["next"] = Position(record).next_step(seat, title="Friday")
    render.forget_shared_layouts()
    path = tmp_path / "age2.pdf"
    path.write_bytes(render_pdf(context))
    pages = int(pdf_info(path)["Pages"])
    text = pdf_text(path)
    numbers = [(int(a), int(b)) for a, b in re.findall(r"page (\d+) of (\d+)", text)]
    assert numbers == [(n, pages) for n in range(1, pages + 1)]
    flat = squash(text)
    order = [flat.index(words) for words in ("The second age", "Age 2: power cards and points", "Scoring of age 2",
                                             "The score track", "Your hand", "What happens next")]
    assert order == sorted(order)
    assert f"for {context['reader']['name']}" in flat and "age 2 · results" in flat
