# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
HOST ?= 127.0.0.1
PORT ?= 8000
# `make run` is for trying the site on this machine: debug mode and the development
# key, unless DEBUG is set in the environment. Settings default DEBUG to off.
DEBUG ?= 1

.PHONY: install run test lint bench

install:
	$(PYTHON) -m pip install -e '.[test]'

run: install
	DEBUG=$(DEBUG) $(PYTHON) manage.py migrate --noinput
	DEBUG=$(DEBUG) $(PYTHON) -m daphne -b $(HOST) -p $(PORT) cardtable.asgi:application

# pytest runs everything; tests/server/test_backends.py also reruns the server
# suite on PostgreSQL + Redis, and tests/server/test_daphne.py starts two Daphnes
# on them (both skip without the services, and fail under CARDTABLE_REQUIRE_SERVICES=1).
# The browser tests run in a pytest process of their own, so a browser stuck in one
# test cannot hold up the rest of the suite (tests/browser/driver.py bounds every wait).
test: install
	$(PYTHON) -m ruff check .
	$(PYTHON) -m pytest --ignore=tests/browser
	$(PYTHON) -m pytest tests/browser

lint:
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .

bench:
	$(PYTHON) -m pip install -e '.[test,bench]'
	$(PYTHON) bench/engine.py
	$(PYTHON) bench/cribbage.py
