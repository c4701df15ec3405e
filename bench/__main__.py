"""Print every benchmark row as one JSON object per line."""
from __future__ import annotations

import importlib
import json
import sys

# Each module measures its own baseline in the same run where a ratio matters.
MODULES = ["bench.engine", "bench.service", "bench.worker", "bench.mail", "bench.gateway", "bench.reports"]


def main() -> int:
    for name in MODULES:
        module = importlib.import_module(name)
        for row in module.run():
            print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
