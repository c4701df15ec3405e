"""WeasyPrint drawings done once and replayed: the board of a moment and its public pages are the
same for every seat, yet each seat's PDF would draw them again (most of what writing a seat's
PDF costs).

`draw_once(stream, key, draw)` draws into a PDF content stream (WeasyPrint's `pdf.stream.Stream`)
what `draw(stream)` would, from a recording kept under `key` when there is one made in the very
same starting state, else by drawing it into a scratch stream in that state and recording what
came out: the content operators, the Form XObjects and transparency states it added to the
resources, the glyphs it used of each font and the graphics state it left.  Replaying applies
those to the stream exactly as drawing would, so a PDF is the same, byte for byte, whether its
drawings were replayed or drawn (tests/reports/test_recorded_drawings.py).  A drawing that did
anything else (an image, a pattern, a mask, a glyph no font has, a warning) is not recorded: it
is drawn into the stream as usual.

This reads and sets WeasyPrint's own stream attributes (graphics state, resources, fonts):
WeasyPrint is pinned in the lock files, and the byte-for-byte tests fail on an upgrade that
changes them.  A key names one drawing of public content only (the caller's job: the board's
SVG by its hash, a page of the public layout); the recordings are kept per thread, as
WeasyPrint's fonts are, and only the last few.
"""
from __future__ import annotations

import copy
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Hashable

import pydyf

KEPT = 16  # recordings per thread: a moment's board and public pages, in A4 and Letter
_STATE = ("_current_color", "_current_color_stroke", "_current_alpha", "_current_alpha_stroke",
          "_current_font", "_old_font", "_old_font_size")
_ALPHA = {"CA", "ca"}  # the only transparency states a recording may add (set_alpha's)
_KEPT = threading.local()


@dataclass(frozen=True)
class _Recording:
    body: bytes                      # the content operators, but the last, joined as pydyf joins them
    last: Any                        # the last operator, kept apart: WeasyPrint looks back at it
    resources: dict[str, dict[str, Any]]  # kind -> name -> object added (XObject, ExtGState)
    glyphs: tuple[tuple[Any, tuple[tuple[int, int], ...], tuple[tuple[int, str], ...]], ...]
    fonts: dict[Any, Any]            # font key -> an unused Font, for a document without it yet
    end: dict[str, Any]              # the graphics state attributes it left


def draw_once(stream: Any, key: Hashable, draw: Callable[[Any], None]) -> None:
    """Draw into `stream` what `draw(stream)` draws, replayed from a recording when one of `key`
    was made in the same starting state."""
    start = _start(stream)
    kept: OrderedDict[Hashable, _Recording] | None = getattr(_KEPT, "recordings", None)
    if kept is None:
        kept = _KEPT.recordings = OrderedDict()
    recording = kept.get((key, start))
    if recording is None:
        recording = _record(stream, start, draw)
        if recording is None:
            draw(stream)
            return
        kept[(key, start)] = recording
        while len(kept) > KEPT:
            kept.popitem(last=False)
    else:
        kept.move_to_end((key, start))
    _replay(recording, stream)


def forget_recordings() -> None:
    """Drop this thread's recordings (the bench measures from cold caches)."""
    _KEPT.recordings, _KEPT.files = OrderedDict(), {}


def _start(stream: Any) -> tuple[Any, ...]:
    """What a drawing's operators and resource names depend on besides the drawing itself."""
    resources = stream._resources
    return (tuple(getattr(stream, name) for name in _STATE),
            tuple(tuple(map(tuple, matrix)) for matrix in stream._ctm_stack),
            pydyf._to_bytes(stream.stream[-1]) if stream.stream else None, stream.compress, stream.page_rectangle,
            stream._tags is None, bool(stream._color_profiles), stream._output_intent,
            resources["ColorSpace"], tuple(resources["ExtGState"]),
            *(len(resources[kind]) for kind in ("XObject", "Pattern", "Shading")))


class _Warnings(logging.Handler):
    """Whether WeasyPrint logged anything (a failed picture, a missing glyph) in this thread."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.thread, self.seen = threading.get_ident(), False

    def emit(self, record: logging.LogRecord) -> None:
        self.seen = self.seen or record.thread == self.thread


def _record(stream: Any, start: tuple[Any, ...], draw: Callable[[Any], None]) -> _Recording | None:
    """Draw into a scratch stream in the state of `stream` (its resources copied, no fonts or
    images yet: nothing of the document is changed) and record what came out, or None if it is not something a replay reproduces."""
    resources = pydyf.Dictionary({kind: pydyf.Dictionary(value) if isinstance(value, dict) else value
                                  for kind, value in stream._resources.items()})
    images: dict[str, Any] = {}  # an image drawn lands here, even one the document has: not recorded
    scratch = stream.clone(fonts={}, resources=resources, images=images)
    for name in _STATE:
        setattr(scratch, name, getattr(stream, name))
    scratch._ctm_stack = list(stream._ctm_stack)
    seed = stream.stream[-1:]
    scratch.stream = list(seed)
    warnings = _Warnings()
    weasy_log = logging.getLogger("weasyprint")
    weasy_log.addHandler(warnings)
    try:
        draw(scratch)
    finally:
        weasy_log.removeHandler(warnings)
    added = {kind: {name: value for name, value in resources[kind].items() if name not in stream._resources[kind]}
             for kind in ("XObject", "Pattern", "Shading", "ExtGState")}
    if (warnings.seen or scratch.stream[:len(seed)] != seed or len(scratch.stream) <= len(seed)
            or images or added["Pattern"] or added["Shading"]
            or _start(scratch)[1] != start[1] or not all(_replayable(group) for group in added["XObject"].values())
            or not all(_alpha(state) for state in added["ExtGState"].values())
            or any(font.missing or font.png or font.svg or font.colr for font in scratch._fonts.values())):
        return None
    operators = scratch.stream[len(seed):]
    return _Recording(
        body=_joined(operators[:-1]), last=operators[-1],
        resources={kind: {name: _fresh(value) for name, value in added[kind].items()}
                   for kind in ("XObject", "ExtGState")},
        glyphs=tuple((key, tuple(font.widths.items()), tuple(font.to_unicode.items()))
                     for key, font in scratch._fonts.items()),
        fonts={key: _unused(font) for key, font in scratch._fonts.items()},
        end={name: getattr(scratch, name) for name in _STATE})


def _replayable(group: Any) -> bool:
    """A Form XObject holding only operators, Form XObjects like it and transparency states."""
    if not isinstance(group, pydyf.Stream) or "SMask" in group.extra:
        return False
    inner = group.extra.get("Resources") or {}
    return (not inner.get("Pattern") and not inner.get("Shading")
            and all(_alpha(state) for state in (inner.get("ExtGState") or {}).values())
            and all(_replayable(child) for child in (inner.get("XObject") or {}).values()))


def _alpha(state: Any) -> bool:
    return isinstance(state, dict) and set(state) <= _ALPHA


def _joined(operators: list[Any]) -> bytes:
    """Operators as pydyf.Stream joins them into its data (one item in place of many)."""
    return b"\n".join(pydyf._to_bytes(item) for item in operators)


def _unused(font: Any) -> Any:
    """A copy of WeasyPrint's Font as it was made, before any glyph was used (it holds its own
    reference to the font face, and the font file's bytes: one copy of them per thread, not
    one per recording)."""
    fresh = copy.copy(font)
    fresh.widths, fresh.to_unicode, fresh.missing = {}, {}, {}
    fresh.variations, fresh.used_in_forms = dict(font.variations), False
    files: dict[bytes, bytes] = _KEPT.__dict__.setdefault("files", {})
    fresh.file_content = files.setdefault(font.file_content, font.file_content)
    return fresh


def _replay(recording: _Recording, stream: Any) -> None:
    """Apply `recording` to `stream` as drawing it again would."""
    if recording.body:
        stream.stream.append(recording.body)
    stream.stream.append(recording.last)
    for kind, added in recording.resources.items():
        for name, value in added.items():
            stream._resources[kind][name] = _fresh(value)
    fonts = stream._fonts
    for key, widths, to_unicode in recording.glyphs:
        if key not in fonts:
            fonts[key] = _unused(recording.fonts[key])
        font = fonts[key]
        for glyph, width in widths:
            font.widths.setdefault(glyph, width)
        for glyph, text in to_unicode:
            font.to_unicode.setdefault(glyph, text)
    for name, value in recording.end.items():
        setattr(stream, name, value)


def _fresh(value: Any) -> Any:
    """A copy of a recorded resource for one more document: writing a PDF numbers its objects
    and replaces their resources by references in place."""
    if isinstance(value, pydyf.Stream):
        return pydyf.Stream([_joined(value.stream)], _fresh(value.extra), compress=value.compress)
    if isinstance(value, pydyf.Dictionary):
        return pydyf.Dictionary({key: _fresh(item) for key, item in value.items()})
    if isinstance(value, pydyf.Array):
        return pydyf.Array(_fresh(item) for item in value)
    return value
