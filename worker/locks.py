"""Run-once guards and heartbeats for periodic work.

`single_flight(config, name, seconds)`: a lock that at most one process holds; whoever
does not get it skips its run (a tick that finds the previous one still running does
nothing).  With Redis it is a Redis lock that expires after `seconds` (a worker killed
while holding it cannot block the next ones for longer); on the embedded transport, where
everything runs on one machine, an exclusive lock on a file that the kernel releases when
the process dies.

`heartbeat(config, name, now)` / `last_heartbeat(config, name)`: when a periodic task last
ran, for health checks (worker/health.py).
"""
from __future__ import annotations

import fcntl
import os
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Iterator, Mapping

import redis


def _redis(config: Mapping[str, Any]) -> redis.Redis:
    return redis.Redis.from_url(config["REDIS_URL"], socket_timeout=10, socket_connect_timeout=5)


def _key(config: Mapping[str, Any], name: str) -> str:
    return f"{config.get('PBEM_QUEUE_PREFIX') or ''}pbem:{name}"


def _folder(config: Mapping[str, Any]) -> Path:
    folder = Path(config.get("PBEM_QUEUE_DIR") or "instance/celery")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextmanager
def single_flight(config: Mapping[str, Any], name: str, seconds: int) -> Iterator[bool]:
    """Yield True if this process holds the lock `name` for the block, else False."""
    if config.get("REDIS_URL"):
        lock = _redis(config).lock(_key(config, f"lock:{name}"), timeout=seconds, blocking=False)
        mine = lock.acquire()
        try:
            yield mine
        finally:
            if mine:
                try:
                    lock.release()
                except redis.exceptions.LockError:
                    pass  # expired meanwhile: nothing left to release
        return
    with open(_folder(config) / f"{name}.lock", "a+") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def heartbeat(config: Mapping[str, Any], name: str, now: datetime) -> None:
    if config.get("REDIS_URL"):
        _redis(config).set(_key(config, f"heartbeat:{name}"), now.isoformat(), ex=24 * 3600)
        return
    path = _folder(config) / f"{name}.heartbeat"
    temporary = path.with_suffix(f".{os.getpid()}.tmp")
    temporary.write_text(now.isoformat())
    temporary.replace(path)


def last_heartbeat(config: Mapping[str, Any], name: str) -> datetime | None:
    if config.get("REDIS_URL"):
        value = _redis(config).get(_key(config, f"heartbeat:{name}"))
        return datetime.fromisoformat(value.decode()) if value else None
    path = _folder(config) / f"{name}.heartbeat"
    return datetime.fromisoformat(path.read_text()) if path.exists() else None
