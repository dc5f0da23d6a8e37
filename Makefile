# TriPeaks Online: `make run` serves the site, `make test` runs the whole suite.
# Both create or update the virtual environment in .venv first.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000
# No client message comes near these sizes (a move is ~40 bytes); larger frames are cut off by
# Daphne before the application sees them.
DAPHNE_LIMITS := --websocket-max-message-size 16384 --websocket-max-frame-size 16384 \
	--websocket_connect_timeout 10

.PHONY: run test lint format bench chromium clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

## run: set up, migrate and serve the site with Daphne on http://127.0.0.1:8000/
run: $(STAMP)
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py migrate --noinput
	DEBUG=$${DEBUG:-1} $(BIN)/daphne --bind $(HOST) --port $(PORT) $(DAPHNE_LIMITS) \
		tripeaks_site.asgi:application

## test: set up (including Debian's chromium for the browser tests) and run every test
test: $(STAMP) chromium
	$(BIN)/pytest

## chromium: the browser tests drive Debian's chromium; install it when it is missing (needs root)
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "Installing Debian's chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

## lint: ruff (lint and format check) and mypy (strict on the engine)
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .
	$(BIN)/mypy --strict game/engine

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

## bench: print the engine's speed figures
bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
