"""What keeps rendering a report safe: input caps, the asset-only URL fetcher, and bounds
on render time and memory.

- Text that players choose (names, game titles) is cleaned and capped (pbem.text), and
  escaped by the templates' autoescape; it is never marked safe.
- WeasyPrint gets a fetcher that serves the files of `pbem/reports/assets/` by the
  internal scheme `pbem-asset:NAME`, and the pictures pbem drew for the document (the
  board) by `pbem-render:NAME`, and refuses every other URL (file:, http:, https:, ftp:,
  data:, relative URLs: all refused).
- `bounded()` limits one render's wall time (SIGALRM, in the main thread) and address
  space (RLIMIT_AS, on Linux) so a warm worker cannot be held or swollen by one report.
"""
from __future__ import annotations

import _weakrefset  # WeakSet's callbacks live there
import contextlib
import gc
import mimetypes
import os
import re
import signal
import threading
import time
import weakref
from datetime import datetime, timezone
from importlib import resources
from typing import Any, Callable, Iterator, Mapping

from pbem.timezones import zone

ASSET_SCHEME = "pbem-asset:"
RENDER_SCHEME = "pbem-render:"
MAX_ASSET_BYTES = 2 * 1024 * 1024
DEFAULT_SECONDS = 30.0
DEFAULT_MEMORY_MB = 1024
REPEAT_SECONDS = 0.05  # how often an expired render's alarm rings again

_ASSET_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,40}\.(svg|png|css|woff2?|ttf|otf)")


class RenderError(RuntimeError):
    """A report could not be rendered within its bounds."""


class RenderTimeout(RenderError, TimeoutError):
    """Rendering took longer than the time it was given."""


class FetchRefused(ValueError):
    """A URL the report renderer will not fetch."""


# --- time zones ----------------------------------------------------------------------

def format_deadline(deadline: datetime | None, tz: Any) -> dict[str, str] | None:
    """A deadline in the reader's zone: {"iso", "local", "zone", "abbrev", "utc"}.
    A naive datetime is taken as UTC."""
    if deadline is None:
        return None
    if deadline.tzinfo is None:
        deadline = deadline.replace(tzinfo=timezone.utc)
    where = zone(tz)
    local = deadline.astimezone(where)
    utc = deadline.astimezone(timezone.utc)
    return {"iso": local.isoformat(timespec="minutes"),
            "local": f"{local:%A} {local.day} {local:%B %Y}, {local:%H:%M}",
            "zone": where.key,
            "abbrev": local.tzname() or where.key,
            "utc": f"{utc:%a} {utc.day} {utc:%b}, {utc:%H:%M} UTC"}


# --- fetching: own assets only -------------------------------------------------------

def asset_names() -> list[str]:
    folder = resources.files("pbem.reports").joinpath("assets")
    return sorted(entry.name for entry in folder.iterdir() if _ASSET_NAME.fullmatch(entry.name))


def read_asset(name: str) -> bytes:
    """An asset's bytes by bare name (no folders, a known suffix, shipped with pbem)."""
    if not _ASSET_NAME.fullmatch(name) or name not in asset_names():
        raise FetchRefused(f"no report asset {name!r}")
    data = resources.files("pbem.reports").joinpath("assets", name).read_bytes()
    if len(data) > MAX_ASSET_BYTES:
        raise FetchRefused(f"report asset {name!r} is too large")
    return data


def asset_for(url: str) -> tuple[str, bytes]:
    """(mime type, bytes) for a `pbem-asset:NAME` URL; FetchRefused for any other URL."""
    if not isinstance(url, str) or not url.startswith(ASSET_SCHEME):
        raise FetchRefused(f"refused to fetch {str(url)[:200]!r}: reports fetch only their own assets")
    name = url[len(ASSET_SCHEME):]
    data = read_asset(name)
    mime = mimetypes.guess_type(name)[0] or "application/octet-stream"
    if name.endswith(".svg"):
        mime = "image/svg+xml"
    return mime, data


def make_url_fetcher(log: Callable[[str], None] | None = None,
                     pictures: Mapping[str, tuple[str, bytes]] | None = None):
    """A WeasyPrint URL fetcher that serves `pbem-asset:NAME` (files shipped in
    pbem/reports/assets/) and `pbem-render:NAME` (pictures pbem drew for this document,
    given as `pictures`: NAME -> (mime type, bytes)), and refuses every other URL.

    `log`, if given, is called with every URL WeasyPrint asks for (the tests record them).
    WeasyPrint treats a refusal as a missing resource (a warning), so a refused URL in a
    document leaves a gap and never fails the render.
    """
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    own = dict(pictures or {})

    class AssetFetcher(URLFetcher):
        def __init__(self) -> None:
            super().__init__(timeout=1, allowed_protocols=(), allow_redirects=False)

        def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
            if log is not None:
                log(url)
            if isinstance(url, str) and url.startswith(RENDER_SCHEME) and url[len(RENDER_SCHEME):] in own:
                mime, data = own[url[len(RENDER_SCHEME):]]
            else:
                mime, data = asset_for(url)
            return URLFetcherResponse(url, data, {"Content-Type": mime})

        def open(self, url: Any, data: Any = None, timeout: Any = None) -> Any:
            raise FetchRefused("reports open no URLs")

    return AssetFetcher()


# --- time and memory -----------------------------------------------------------------

def _address_space() -> int | None:
    try:
        with open("/proc/self/statm", "rb") as handle:
            pages = int(handle.read().split()[0])
        return pages * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


# Where an error is ignored ("Exception ignored in ...") and the cleanup it interrupts is
# lost: finalisers, the callbacks of weak references (weakref's dictionaries and sets), and
# the garbage collector's callbacks (gc.callbacks: a library may install one; CI saw the
# alarm land in Hypothesis's).
_CLEANUP_FILES = frozenset({weakref.__file__, _weakrefset.__file__})


def _in_cleanup(frame: Any) -> bool:
    collector = {getattr(callback, "__code__", None) for callback in gc.callbacks}
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__" or code.co_filename in _CLEANUP_FILES or code in collector:
            return True
        frame = frame.f_back
    return False


class _Alarm:
    """A SIGALRM timer that raises RenderTimeout once `seconds` have passed, then again every
    REPEAT_SECONDS, and remembers that it expired.  WeasyPrint turns any error while it
    fetches or draws a picture into a missing picture: a single alarm could be swallowed
    there and the render would run on unbounded."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.armed = False
        self.expired = False
        self.collecting = False  # inside a collection: weak references' callbacks and finalisers run there

    def _collection(self, phase: str, info: Any) -> None:
        self.collecting = phase == "start"

    def error(self) -> RenderTimeout:
        return RenderTimeout(f"rendering took longer than {self.seconds:g} s")

    def _ring(self, signum: int, frame: Any) -> None:
        if self.armed:
            self.expired = True
            if frame is None or not (self.collecting or _in_cleanup(frame)):
                raise self.error()

    def start(self, previous_left: float, previous_interval: float) -> Callable[[], None]:
        """Arm the alarm; returns what disarms it and gives back an earlier timer."""
        old_handler = signal.signal(signal.SIGALRM, self._ring)
        started = time.monotonic()
        # First of the collector's callbacks, so the flag is up before any other runs (CI saw a
        # ring land in a weak reference's callback of SQLAlchemy's during a collection).
        gc.callbacks.insert(0, self._collection)
        self.armed = True
        signal.setitimer(signal.ITIMER_REAL, self.seconds, REPEAT_SECONDS)

        def stop() -> None:
            while True:  # a tick may land while disarming; once unarmed the handler is quiet
                try:
                    self.armed = False
                    signal.setitimer(signal.ITIMER_REAL, 0)
                    break
                except RenderTimeout:
                    continue
            signal.signal(signal.SIGALRM, old_handler)
            if self._collection in gc.callbacks:
                gc.callbacks.remove(self._collection)
            if previous_left:  # give back the rest of an earlier, longer timer
                left = previous_left - (time.monotonic() - started)
                signal.setitimer(signal.ITIMER_REAL, max(left, 0.001), previous_interval)

        return stop


@contextlib.contextmanager
def bounded(seconds: float | None = DEFAULT_SECONDS,
            memory_mb: int | None = DEFAULT_MEMORY_MB) -> Iterator[None]:
    """Bound the work inside: wall time, and address space growth.

    Time: in the main thread on a POSIX system, a SIGALRM timer raises RenderTimeout
    when `seconds` have passed, and again every REPEAT_SECONDS until the work stops; work
    that outlived its time ends in RenderTimeout even if something inside swallowed every
    alarm (any earlier timer is restored afterwards).  Elsewhere (a thread pool) nothing
    can interrupt the work; the Celery task's hard time limit is the backstop there.
    Memory: on Linux, in the main thread, the soft RLIMIT_AS is lowered to the current
    size + `memory_mb` while the work runs, then restored: an allocation beyond raises
    MemoryError in Python code (a C library that cannot allocate may abort, and the pool
    replaces the worker process).  Nested calls keep the tighter bounds.
    """
    main = threading.current_thread() is threading.main_thread()
    restore: list[Callable[[], None]] = []
    alarm: _Alarm | None = None
    try:
        if seconds is not None and seconds > 0 and main and hasattr(signal, "setitimer"):
            previous_left, previous_interval = signal.getitimer(signal.ITIMER_REAL)
            if not previous_left or previous_left > seconds:
                alarm = _Alarm(seconds)
                restore.append(alarm.start(previous_left, previous_interval))
        if memory_mb is not None and memory_mb > 0 and main:  # a process-wide limit: one render at a time
            try:
                import resource
            except ImportError:  # pragma: no cover - not POSIX
                resource = None
            size = _address_space()
            if resource is not None and size is not None:
                soft, hard = resource.getrlimit(resource.RLIMIT_AS)
                wanted = size + memory_mb * 1024 * 1024
                if hard != resource.RLIM_INFINITY:
                    wanted = min(wanted, hard)
                if soft == resource.RLIM_INFINITY or wanted < soft:
                    resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))
                    restore.append(lambda: resource.setrlimit(resource.RLIMIT_AS, (soft, hard)))
        try:
            yield
        except RenderTimeout:
            raise
        except Exception as error:
            if alarm is not None and alarm.expired:  # a swallowed alarm surfaced as another error
                raise alarm.error() from error
            raise
    finally:
        for undo in reversed(restore):
            undo()
    if alarm is not None and alarm.expired:  # the work finished, but only after a swallowed alarm
        raise alarm.error()
