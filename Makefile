# The two commands a newcomer needs: `make run` and `make test`.
#
# Both work in a virtualenv inside the clone, .venv/, which they create with
# `python3 -m venv .venv` when it is missing; every recipe runs with .venv/bin
# first on PATH, so nothing installed elsewhere on the machine is used. A stamp
# file per extra remembers the last install: the project is installed again only
# when pyproject.toml is newer. A new dependency is one line in pyproject.toml.
SYSTEM_PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
export VIRTUAL_ENV := $(CURDIR)/$(VENV)
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)
PIP := $(PY) -m pip install --disable-pip-version-check --quiet
HOST ?= 127.0.0.1
PORT ?= 8000
# `make run` is for trying the site on this machine: debug mode and the development
# key, unless DEBUG is set in the environment. Settings default DEBUG to off.
DEBUG ?= 1
WORKERS ?= 2

.PHONY: install run test test-main test-services test-browser lint bench

$(PY):
	@echo "make: no $(VENV)/ here: creating it with '$(SYSTEM_PYTHON) -m venv $(VENV)'"
	@$(SYSTEM_PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
	  echo "make: '$(SYSTEM_PYTHON) -m venv' failed; on Debian or Ubuntu: sudo apt install python3-venv"; exit 1; }

# What running needs (pyproject's dependencies), then everything the tests import too.
$(VENV)/.installed-run: pyproject.toml | $(PY)
	@echo "make: installing the project into $(VENV)/ (pyproject.toml is newer than the last install)"
	$(PIP) -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	@echo "make: installing the project and its test tools into $(VENV)/ (pyproject.toml is newer than the last install)"
	$(PIP) -e '.[test]'
	@touch $@ $(VENV)/.installed-run

install: $(VENV)/.installed-run

run: $(VENV)/.installed-run
	DEBUG=$(DEBUG) python manage.py migrate --noinput --verbosity 0
	DEBUG=$(DEBUG) python -m cardtable.serve --host $(HOST) --port $(PORT)

# Three pytest runs, each naming every test that fails; any failure (or a run that
# collects nothing, exit code 5) stops `make test`:
# - the suite on SQLite and the in-memory channel layer (tests marked redis or
#   postgres use those servers: tests/server/test_daphne.py runs two Daphnes on them);
# - the server, dashboard and ratings suites again on PostgreSQL + Redis (tests/on_services.py
#   sets DATABASE_URL, a test database of this run's own, and REDIS_URL);
# - the browser tests (tests/browser/), in processes of their own: Playwright's sync
#   API holds an event loop in its process while it runs.
# The first and the last run in WORKERS processes (pytest-xdist; 0: one process): on two
# cores a test waiting on a server or a browser leaves a core to the other worker. The
# browser tests go out a file at a time, so a file's tests share its browser.
# Without those services or Chromium the tests that need them skip with the reason,
# and fail instead under CARDTABLE_REQUIRE_SERVICES=1 (as .ci/run sets it).
test: $(VENV)/.installed-test
	python -m ruff check .
	$(MAKE) --no-print-directory --keep-going test-main test-services test-browser

test-main: $(VENV)/.installed-test
	python -m pytest --ignore=tests/browser -n $(WORKERS) --durations=15

test-services: $(VENV)/.installed-test
	python -m tests.on_services tests/server tests/dashboard tests/ratings --ignore=tests/server/test_settings.py

test-browser: $(VENV)/.installed-test
	python -m pytest tests/browser -n $(WORKERS) --dist loadfile --durations=10

lint: $(VENV)/.installed-test
	python -m ruff check .
	python -m ruff format --check .

bench: $(VENV)/.installed-test
	$(PIP) -e '.[test,bench]'
	python bench/engine.py
	python bench/cribbage.py
