"""Fixtures for the report tests: one recorded 4-player game, every report of it, and every
report rendered to PDF (in worker processes, to keep the suite quick) with its pages as
PNG under artifacts/reports/ (gitignored; CI keeps them as build artefacts)."""
import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

_HERE = Path(__file__).resolve().parent
for _path in (str(_HERE.parents[1]), str(_HERE)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

import pytest  # noqa: E402

from reports_helpers import ARTIFACTS, TITLE, have_poppler, play_record, render_job  # noqa: E402

DEADLINE_ZONE = "Europe/Paris"


def report_name(seat: str, age: int, kind: str) -> str:
    return f"final-{seat}" if kind == "final" else f"age{age}-{seat}"


@pytest.fixture(scope="session")
def record():
    return play_record()


@pytest.fixture(scope="session")
def facts():
    from datetime import datetime, timezone
    return {"title": TITLE, "tz": DEADLINE_ZONE,
            "deadlines": {age: datetime(2025, 3, 1 + age * 3, 17, 30, tzinfo=timezone.utc) for age in range(1, 5)},
            "links": {"game": "https://pbem.example/games/7", "orders": "https://pbem.example/games/7/orders"}}


@pytest.fixture(scope="session")
def reports(record, facts):
    """[(seat, age, context)] for every seat and every age (the last one is the final report)."""
    from pbem.reports import reports_for_record
    return list(reports_for_record(record, **facts))


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def pdfs(reports, artifacts):
    """Every report as a PDF (A4 for even ages and the final report in A4 too; odd ages in
    Letter), with PNG pages: {name: {"pdf", "pngs", "urls", "page_size"}}."""
    jobs = []
    for seat, age, context in reports:
        name = report_name(seat, age, context["kind"])
        size = "Letter" if context["kind"] == "age" and age % 2 else "A4"
        jobs.append((name, context, size, str(artifacts)))
    # Under pytest-xdist the other cores already run other tests: render in this process.
    workers = 1 if os.environ.get("PYTEST_XDIST_WORKER") else max(1, min(4, os.cpu_count() or 1))
    if workers == 1:
        results = [render_job(job) for job in jobs]
    else:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            results = list(pool.map(render_job, jobs))
    out = {}
    for job, result in zip(jobs, results):
        out[result["name"]] = {**result, "page_size": job[2]}
    return out


@pytest.fixture(scope="session")
def poppler():
    if not have_poppler():
        pytest.fail("poppler-utils (pdftoppm, pdfinfo, pdftotext) are needed: "
                    "apt-get install -y poppler-utils")
