"""A hang guard for hostile-input tests.

The pathological inputs these tests feed once took minutes (quadratic parsers); the
guard fails such a regression without timing anything finer, so the tests do not
flake on a loaded machine. How fast parsing really is, `make bench` measures.
"""
from __future__ import annotations

import signal
from contextlib import contextmanager
from typing import Iterator

HANG_SECONDS = 30


@contextmanager
def hang_guard(seconds: int = HANG_SECONDS) -> Iterator[None]:
    def hung(signum, frame):  # noqa: ARG001 - signal handler signature
        raise AssertionError(f"still running after {seconds} s: unbounded work on hostile input")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
