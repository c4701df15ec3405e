# Every target installs what it needs into .venv first, so a fresh clone just works.
# Installs come from the lock files (every dependency pinned, with hashes): requirements.lock
# for the service (the Docker image uses it too), requirements-dev.lock adds the test tools.
# The interpreter .venv is made from: the system's python3 when it is 3.11 or later and can make
# a venv, else the first python3 on the PATH. Distributions build their python3 with
# profile-guided and link-time optimisation, as the official Docker image that production runs
# builds its own; a version manager's build (pyenv's, by default) has neither, and ran the
# engine's games 14-21 % slower (docs/service.md#the-interpreter). `make PYTHON=...` picks another.
SYSTEM_PYTHON := /usr/bin/python3
PYTHON ?= $(shell $(SYSTEM_PYTHON) -c 'import sys, ensurepip; sys.exit(sys.version_info < (3, 11))' \
	2>/dev/null && echo $(SYSTEM_PYTHON) || echo python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCK := requirements.lock
DEV_LOCK := requirements-dev.lock
UV_VERSION := 0.13.9
# --universal: one lock for every platform and Python >= 3.11 (markers where they differ).
COMPILE = $(BIN)/uv pip compile --quiet --universal --python-version 3.11 --generate-hashes \
	--custom-compile-command 'make lock'

.PHONY: run test bench lock upgrade clean

# The test game (a game plug-in of its own, no dependencies) is installed for the tests only.
TESTGAME := tests/plugins/pbem-testgame

$(STAMP): $(DEV_LOCK) $(LOCK) pyproject.toml $(TESTGAME)/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet --require-hashes -r $(DEV_LOCK)
	$(BIN)/pip install --quiet --no-deps -e .
	$(BIN)/pip install --quiet --no-deps -e $(TESTGAME)
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/pbem run

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python -m bench $(SUITES)

# After a change to the dependencies in pyproject.toml: lock again, keeping every pin that
# still fits, then install and run the suite.
lock: $(STAMP)
	$(BIN)/pip install --quiet uv==$(UV_VERSION)
	$(COMPILE) pyproject.toml $(UV_ARGS) -o $(LOCK)
	$(COMPILE) pyproject.toml --extra dev -c $(LOCK) $(UV_ARGS) -o $(DEV_LOCK)
	$(MAKE) test

# Every dependency to its newest version that pyproject.toml allows, then the suite.
upgrade:
	$(MAKE) lock UV_ARGS=--upgrade

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info

.PHONY: golden
golden: $(STAMP)
	$(BIN)/python -m tests.engine.golden
