# Every target installs what it needs into .venv first, so a fresh clone just works.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/pbem run

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info

.PHONY: golden
golden: $(STAMP)
	$(BIN)/python -m tests.engine.golden
