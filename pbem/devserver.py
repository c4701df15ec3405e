"""`make run` / `pbem run`: the whole service on embedded defaults, for development.

A SQLite file under instance/ (DATABASE_URL to change it), no Redis, and mail kept in
the outbox (listed at /dev/outbox) instead of being sent.
"""
from __future__ import annotations

import os

from pbem.config import database_url

HOST = "127.0.0.1"


def main() -> None:
    os.environ.setdefault("PBEM_ENV", "development")
    port = int(os.environ.get("PBEM_PORT", "5000"))
    os.environ.setdefault("PBEM_BASE_URL", f"http://{HOST}:{port}")
    from pbem.app import create_app
    from pbem.db import upgrade

    url = database_url()
    upgrade(url)  # create or migrate the schema first: a fresh clone needs no other step
    app = create_app()
    print(f"pbem is running at http://{HOST}:{port}/  (database: {url}; "
          f"mail goes to http://{HOST}:{port}/dev/outbox; Ctrl-C stops it)", flush=True)
    app.run(host=HOST, port=port, debug=False, use_reloader=False)


if __name__ == "__main__":
    main()
