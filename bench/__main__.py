"""Print every benchmark row as one JSON object per line.

    python -m bench                # every suite
    python -m bench scale worker   # only these suites (bench/<name>.py)
"""
from __future__ import annotations

import importlib
import json
import sys

# Each module measures its own baseline in the same run where a ratio matters.
MODULES = ["bench.engine", "bench.service", "bench.worker", "bench.mail", "bench.gateway", "bench.reports",
           "bench.scale"]


def main(argv: list[str]) -> int:
    chosen = [f"bench.{name}" for name in argv]
    unknown = [name for name in chosen if name not in MODULES]
    if unknown:
        print(f"unknown suite {unknown[0][len('bench.'):]!r}; the suites: "
              f"{', '.join(name[len('bench.'):] for name in MODULES)}", file=sys.stderr)
        return 2
    for name in chosen or MODULES:
        module = importlib.import_module(name)
        for row in module.run():
            print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
