"""Server-sent event streams of live pages (pbem/live.py): a `change` event, its data the new
stamp, whenever a page's stamp moves away from the one it was drawn at."""
from __future__ import annotations

import time
from typing import Any, Callable

from flask import Response, stream_with_context

from pbem import live
from pbem.extensions import db

# One stream holds a server thread, never a database connection, for at most this long;
# the browser's EventSource then connects again by itself.
STREAM_SECONDS = 300
BEAT_SECONDS = 25  # a comment line this often keeps proxies from closing an idle stream


def event_stream(stamp: Callable[[Any], str | None], seen: str | None,
                 concerns: int | Callable[[int], bool]) -> Response:
    """`stamp(session)` reads the page's stamp; the stream ends if it becomes None (gone)."""
    db.session.remove()  # no connection held while the stream is open

    def read() -> str | None:
        try:
            return stamp(db.session())
        finally:
            db.session.remove()

    def events() -> Any:
        nonlocal seen
        yield "retry: 2000\n\n"
        end = time.monotonic() + STREAM_SECONDS
        while time.monotonic() < end:
            now = live.wait(read, seen, min(BEAT_SECONDS, end - time.monotonic()), concerns)
            if now is None:
                return
            if now != seen:
                seen = now
                yield f"id: {now}\nevent: change\ndata: {now}\n\n"
            else:
                yield ": still here\n\n"

    return Response(stream_with_context(events()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
