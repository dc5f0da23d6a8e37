# TriPeaks Online: `make run` serves the site, `make test` runs the whole suite.
# Both create or update the virtual environment in .venv first.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
NODE_STAMP := node_modules/.installed-stamp
BIOME := node_modules/.bin/biome
HOST ?= 127.0.0.1
PORT ?= 8000
# No client message comes near these sizes (a move is ~40 bytes); larger frames are cut off by
# Daphne before the application sees them.
DAPHNE_LIMITS := --websocket-max-message-size 16384 --websocket-max-frame-size 16384 \
	--websocket_connect_timeout 10

.PHONY: run test lint format bench system-packages topology clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

# The front end's tools from package-lock.json, exactly (npm ci empties node_modules first): Biome
# (make lint), axe-core (injected by the accessibility tests, tests/e2e/test_axe.py) and Lighthouse
# (bench/lighthouse.py).
$(NODE_STAMP): package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

## run: set up, migrate and serve the site with Daphne on http://127.0.0.1:8000/
run: $(STAMP)
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py migrate --noinput
	DEBUG=$${DEBUG:-1} $(BIN)/daphne --bind $(HOST) --port $(PORT) $(DAPHNE_LIMITS) \
		tripeaks_site.asgi:application

## test: set up (including Debian's chromium and nginx for the tests, and node_modules) and run every
## test
test: $(STAMP) $(NODE_STAMP) system-packages
	$(BIN)/pytest

## system-packages: install what the tests drive when it is missing (needs root): Debian's chromium
## (browser tests) and nginx (the production topology's tests, tests/deploy/)
system-packages:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	test -x /usr/sbin/nginx || missing="$$missing nginx-light"; \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian's$$missing for the tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

## topology: the production topology on this machine (nginx, two Daphne processes, DEBUG=0,
## Redis) against DATABASE_URL's PostgreSQL database, migrated first (deploy/topology.py)
topology: $(STAMP) system-packages
	$(BIN)/python -m deploy.topology

## lint: ruff (lint and format check), mypy (strict on the engine), the import contracts
## (import-linter: the layers of docs/architecture.md), and Biome on the scripts and stylesheets
## of static/ (lint and format check; biome.jsonc)
lint: $(STAMP) $(NODE_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .
	$(BIN)/mypy --strict game/engine
	$(BIN)/lint-imports
	$(BIOME) ci --error-on-warnings

format: $(STAMP) $(NODE_STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .
	$(BIOME) check --write

## bench: print the engine's speed figures
bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) node_modules db.sqlite3 staticfiles
