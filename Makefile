# Two commands matter: `make run` starts the bot, `make test` runs every check CI runs.
# `make help` lists the rest. Every target builds the virtual environment it needs.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python

# Installs take the exact versions in constraints.txt (pyproject.toml keeps the ranges).
# PIP_CONSTRAINT also reaches pip's isolated build of this project (the setuptools pin).
# bot/__init__.py holds the version the package metadata reads, so a new version reinstalls.
CONSTRAINTS := constraints.txt
# Quoted: the checkout's folder may have a space in its name.
PIP_INSTALL := PIP_CONSTRAINT="$(CURDIR)/$(CONSTRAINTS)" $(PY) -m pip install --quiet \
	--disable-pip-version-check -c $(CONSTRAINTS)
RUN_STAMP := $(VENV)/.run-installed
DEV_STAMP := $(VENV)/.dev-installed

# `make soak`: games per preset and player count, the first seed (also Hypothesis's), and
# Hypothesis examples per preset (and random games or states per case of the other sized
# tests). Settable here or in the environment. `make test` runs the same tests smaller.
SOAK_GAMES ?= 2000
SOAK_SEED ?= 0
SOAK_EXAMPLES ?= 100
SOAK_TESTS := tests/engine/test_properties.py tests/engine/test_legal.py \
	tests/engine/test_typing.py tests/engine/test_solver.py tests/cogs/test_present.py \
	tests/cogs/test_hints.py

.DEFAULT_GOAL := help
.PHONY: help run test lint format typecheck pytest soak bench pictures readme-pictures backup \
	lock clean

help: ## list the targets
	@echo "usage: make TARGET [VARIABLE=value ...]"
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  %-16s %s\n", $$1, $$2}' \
		$(MAKEFILE_LIST)

# The Python version and the venv module are checked first, and a failed `venv` leaves no
# half-made environment behind; an environment made by an older Python is named too.
$(PY):
	@sh scripts/check-python.sh "$(PYTHON)"
	$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); exit 1; }

$(RUN_STAMP): pyproject.toml $(CONSTRAINTS) bot/__init__.py | $(PY)
	@sh scripts/check-python.sh "$(PY)" venv
	$(PIP_INSTALL) -e .
	touch $@

$(DEV_STAMP): pyproject.toml $(CONSTRAINTS) bot/__init__.py | $(PY)
	@sh scripts/check-python.sh "$(PY)" venv
	$(PIP_INSTALL) -e '.[dev]'
	touch $@

run: $(RUN_STAMP) ## start the bot (installs only what running needs; settings in .env)
	$(PY) -m bot

# ruff first (it takes a second), then mypy beside pytest: most of pytest's workers wait on
# sockets and processes, so mypy mostly fills the time they leave. mypy's lines come after
# pytest's, whole, and either one failing fails `make test`.
test: lint $(DEV_STAMP) ## every check CI runs: ruff, mypy --strict, the whole test suite
	@typing="$$(mktemp)"; \
	$(MAKE) --no-print-directory typecheck >"$$typing" 2>&1 & mypy=$$!; \
	$(MAKE) --no-print-directory pytest; tests=$$?; \
	wait $$mypy; typed=$$?; cat "$$typing"; rm -f "$$typing"; \
	test $$tests -eq 0 && test $$typed -eq 0

lint: $(DEV_STAMP) ## ruff: lint and formatting check
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

format: $(DEV_STAMP) ## ruff: fix what can be fixed and reformat
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .

typecheck: $(DEV_STAMP) ## mypy --strict over all our code, tests and benchmarks included
	$(PY) -m mypy --strict bot rendering cogs web tests benchmarks scripts

# The PostgreSQL part of the suite needs a server: RUMMY_TEST_POSTGRES names one, else
# pg_virtualenv (Debian's postgresql-common) starts a throwaway one for the run (fsync off:
# its data dies with it). `-t` keeps that cluster in a private temporary directory even as
# root: as root pg_virtualenv otherwise uses the system's /etc/postgresql/<v>/regress, which a
# run killed halfway leaves behind and every later run then refuses to overwrite (and two runs
# at once would share). Without either the suite runs on SQLite alone and says so.
# TEST_WORKERS: pytest-xdist's worker processes, two more than the cores: many tests wait on
# sockets and processes, and beside other busy processes more workers keep the suite's
# share of the cores (CONTRIBUTING.md has the measurements). Byte code is written even where
# the environment turns that off (PYTHONDONTWRITEBYTECODE): else every worker and every
# `python -m bot` a test starts compiles the same modules again.
TEST_WORKERS ?= $(shell $(PYTHON) -c "import os; print((os.cpu_count() or 1) + 2)")
PYTEST := $(PY) -m pytest -W error -q -n $(TEST_WORKERS)
PG_TEST_URL := postgresql://$$PGUSER:$$PGPASSWORD@$$PGHOST:$$PGPORT/$$PGDATABASE

pytest: export PYTHONDONTWRITEBYTECODE :=
pytest: $(DEV_STAMP) ## the test suite on SQLite and PostgreSQL, TEST_WORKERS processes at once
	@if [ -z "$$RUMMY_TEST_POSTGRES" ] && command -v pg_virtualenv >/dev/null; then \
		echo "PostgreSQL: a throwaway server started by pg_virtualenv"; \
		pg_virtualenv -t -o fsync=off sh -c \
			'RUMMY_TEST_POSTGRES="$(PG_TEST_URL)" exec "$$@"' sh $(PYTEST); \
	else \
		test -n "$$RUMMY_TEST_POSTGRES" || \
			echo "PostgreSQL: no RUMMY_TEST_POSTGRES, no pg_virtualenv: its part is skipped"; \
		$(PYTEST); \
	fi

soak: $(DEV_STAMP) ## the long property run: SOAK_GAMES per preset and player count from SOAK_SEED
	RUMMY_BULK_GAMES=$(SOAK_GAMES) RUMMY_BULK_SEED=$(SOAK_SEED) \
	RUMMY_PROPERTY_EXAMPLES=$(SOAK_EXAMPLES) \
	$(PY) -m pytest -W error -q -s --timeout=0 --hypothesis-seed=$(SOAK_SEED) $(SOAK_TESTS)

bench: $(DEV_STAMP) ## run every benchmark script (medians and ratios)
	for f in benchmarks/bench_*.py; do $(PY) $$f || exit 1; done

pictures: $(DEV_STAMP) ## every picture as Discord shows it: make pictures DEST=dir [LOCALE=fr]
	@test -n "$(DEST)" || { echo "usage: make pictures DEST=folder [LOCALE=fr]"; exit 2; }
	$(PY) -m tests.rendering.preview "$(DEST)" $(LOCALE)

readme-pictures: $(DEV_STAMP) ## redraw docs/pictures/ (the README's, from a seeded game)
	$(PY) -m tests.rendering.readme_pictures docs/pictures

backup: $(RUN_STAMP) ## online copy of the live database: make backup DEST=file
	@test -n "$(DEST)" || { echo "usage: make backup DEST=backup.sqlite3"; exit 2; }
	$(PY) scripts/backup.py "$(DEST)"

lock: ## re-resolve constraints.txt to the newest versions pyproject.toml allows
	PYTHON=$(PYTHON) scripts/lock.sh

clean: ## remove the virtual environment and build leftovers (not data/ or .env)
	rm -rf $(VENV) build *.egg-info .mypy_cache .ruff_cache .hypothesis
