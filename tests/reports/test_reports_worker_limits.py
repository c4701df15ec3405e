"""The report workers' backstops beyond a render's own bounds: a pool process that grew too
large is replaced (production compose file and the development server alike)."""
import json
import re
import subprocess
import sys
from pathlib import Path

from pbem.devserver import REPORT_MAX_MEMORY_KIB, worker_environment

ROOT = Path(__file__).resolve().parents[2]

# What `celery worker` makes of its environment: the options as Celery's CLI resolves them.
_RESOLVE = """
import json
from celery.bin.celery import celery
ctx = celery.make_context("celery", ["worker"], auto_envvar_prefix="CELERY", resilient_parsing=True)
worker = celery.get_command(ctx, "worker").make_context("worker", [], parent=ctx, resilient_parsing=True)
print(json.dumps(worker.params["max_memory_per_child"]))
"""


def _service(compose: str, name: str) -> str:
    """One service's block of docker-compose.yml (up to the next service or section)."""
    found = re.search(rf"^  {name}:\n(.*?)(?=^  [a-z][\w-]*:\n|^\S)", compose, re.MULTILINE | re.DOTALL)
    assert found, f"no service {name!r} in docker-compose.yml"
    return found.group(1)


def test_the_compose_reports_worker_replaces_a_swollen_process():
    reports = _service((ROOT / "docker-compose.yml").read_text(), "reports")
    assert re.search(r'"--max-memory-per-child", "\$\{REPORT_MAX_MEMORY_KIB:-\d+\}"', reports), reports


def test_the_development_worker_replaces_a_swollen_process():
    done = subprocess.run([sys.executable, "-c", _RESOLVE], env=worker_environment(), capture_output=True,
                          text=True, check=True, timeout=60)
    assert json.loads(done.stdout) == REPORT_MAX_MEMORY_KIB
