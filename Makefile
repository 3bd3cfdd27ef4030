# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test lint bench

install:
	$(PYTHON) -m pip install -e '.[test]'

run: install
	$(PYTHON) manage.py migrate --noinput
	$(PYTHON) -m daphne -b $(HOST) -p $(PORT) cardtable.asgi:application

test: install
	$(PYTHON) -m ruff check .
	$(PYTHON) -m pytest

lint:
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .

bench:
	$(PYTHON) -m pip install -e '.[test,bench]'
	$(PYTHON) bench/engine.py
	$(PYTHON) bench/cribbage.py
