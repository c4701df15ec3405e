# One image for every pbem process: the web (gunicorn), the Celery worker and beat.
# docker-compose.yml picks the command; configuration comes from the environment.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# What pip cannot bring: WeasyPrint's Pango (report PDFs) and fonts (PDFs and the board
# pictures that pyvips draws for mails: DejaVu, and Noto for the glyphs DejaVu lacks, so that a
# name in any script is never drawn as a box); see docs/reports.md.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 \
       fonts-dejavu-core fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app

# Dependencies first, from the lock file (every one pinned, with hashes: the versions the
# suite passed with), so a code change does not reinstall them.
COPY requirements.lock ./
RUN pip install --require-hashes -r requirements.lock

# The package itself, in editable mode: the templates, migrations and data files stay where
# pbem expects them (next to the code in /app).
COPY . .
RUN pip install --no-deps -e . \
    && useradd --create-home --uid 10001 pbem \
    && mkdir -p /app/instance && chown pbem /app/instance

USER pbem
EXPOSE 8000

# The web by default; the worker and beat override the command (docker-compose.yml).
# Threads: an open game page holds a stream (pbem/live.py) in a thread, not a whole process.
CMD ["gunicorn", "--bind", "0.0.0.0:8000", "--workers", "4", "--worker-class", "gthread", "--threads", "16", "--access-logfile", "-", "pbem.wsgi:app"]
