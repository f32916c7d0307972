# Okey online. `make run` starts the site, `make test` runs every check CI runs.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
MANAGE := $(BIN)/python manage.py
HOST   ?= 127.0.0.1
PORT   ?= 8000
# The test suite runs in TEST_WORKERS processes (pytest-xdist; logical = one per CPU, 0 = no
# workers, all in this process); an idle worker takes tests queued for a busy one.
TEST_WORKERS ?= logical
PIP    := $(BIN)/pip install --quiet --quiet --disable-pip-version-check
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT    := DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get
I18N_IGNORE := --ignore=.venv --ignore=staticfiles --ignore=static --ignore=tests

.PHONY: help run test test-fast typecheck venv deps dev-deps gettext chromium servers nginx compilemessages messages migrate \
	collectstatic lint format clean

help:
	@echo "make run    start the site on http://$(HOST):$(PORT)/ (daphne; PORT=... to change)"
	@echo "make test   lint, format check and the whole test suite (including browser tests)"
	@echo "make test-fast   the suite without browser and server tests (the quick inner loop)"
	@echo "make typecheck   mypy on what pyproject.toml [tool.mypy] lists (games/engine)"
	@echo "make messages   extract strings into the .po files (en/es/de/tr)"

# --- environment -----------------------------------------------------------------------

$(BIN)/python:
	@echo "Creating the virtual environment ($(VENV))"
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { \
	  echo "python3-venv is missing: installing it"; \
	  $(APT) update -qq && $(APT) install -y -qq python3-venv >/dev/null && \
	  rm -rf $(VENV) && $(PYTHON) -m venv $(VENV); }

# Stamp files keep pip quiet and skip it when the requirements did not change.
$(VENV)/.deps: requirements.txt | $(BIN)/python
	@echo "Installing requirements.txt (about a minute the first time)"
	@$(PIP) -r requirements.txt
	@touch $@

$(VENV)/.dev-deps: requirements.txt requirements-dev.txt | $(BIN)/python
	@echo "Installing requirements-dev.txt (a minute or two the first time)"
	@$(PIP) -r requirements-dev.txt
	@touch $(VENV)/.deps $@

venv: $(BIN)/python
deps: $(VENV)/.deps
dev-deps: $(VENV)/.dev-deps

# Debian packages, installed only when missing.
gettext:
	@command -v msgfmt >/dev/null 2>&1 || { \
	  echo "Installing gettext (apt-get)"; \
	  $(APT) update -qq && $(APT) install -y -qq gettext >/dev/null; }

chromium:
	@[ -x /usr/bin/chromium ] || { \
	  echo "Installing chromium (apt-get)"; \
	  $(APT) update -qq && $(APT) install -y -qq chromium >/dev/null; }

# PostgreSQL and Redis for the multi-process test (tests/games/test_multiprocess.py starts
# throw-away servers of its own; nothing is configured system-wide).
servers:
	@{ ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 && command -v redis-server >/dev/null; } || { \
	  echo "Installing postgresql and redis-server (apt-get)"; \
	  $(APT) update -qq && $(APT) install -y -qq postgresql redis-server >/dev/null; }

# nginx for the affinity tests (tests/games/test_affinity.py, test_multiprocess.py), which
# start throw-away nginx processes with okeysite/deploy/nginx.conf; the package's own
# service is not needed (and not started where the machine has no init).
nginx:
	@{ command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; } || { \
	  echo "Installing nginx (apt-get)"; \
	  $(APT) update -qq && $(APT) install -y -qq nginx >/dev/null; }

# --- Django ------------------------------------------------------------------------------

compilemessages: gettext
	@echo "Compiling translations"
	@$(MANAGE) compilemessages --ignore=.venv --ignore=staticfiles -v 0

messages: gettext
	@$(MANAGE) makemessages -l en -l es -l de -l tr $(I18N_IGNORE) -v 0

migrate:
	@$(MANAGE) migrate --noinput -v 0

collectstatic:
	@$(MANAGE) collectstatic --noinput -v 0

# --- the two commands --------------------------------------------------------------------

run: deps compilemessages
	@echo "Migrating the database"
	@$(MANAGE) migrate --noinput -v 0
	@echo "Collecting static files"
	@$(MANAGE) collectstatic --noinput -v 0
	@echo "Okey online on http://$(HOST):$(PORT)/  (Ctrl-C to stop)"
	@# daphne with the CPU/turn-clock sweeper on its own event loop (games/management/commands/serve.py)
	@$(MANAGE) serve --host $(HOST) --port $(PORT)

test: dev-deps gettext chromium servers nginx compilemessages
	@echo "ruff check"
	@$(BIN)/ruff check --quiet .
	@echo "ruff format --check"
	@$(BIN)/ruff format --check --quiet .
	@echo "mypy"
	@$(BIN)/mypy
	@$(BIN)/pytest -q -n $(TEST_WORKERS) --dist worksteal --durations=15

# The inner loop: every test but the browser tests (e2e), those that start server
# processes (servers: daphne, PostgreSQL, Redis, nginx), so nothing but Python packages and
# gettext is installed, and the long ones (slow); markers are set in tests/conftest.py.
# docs/testing.md has its time.
FAST_MARKERS ?= not e2e and not servers and not slow

# Bytecode caches (__pycache__, ignored by git) are written even where the environment sets
# PYTHONDONTWRITEBYTECODE: without them every worker compiles each changed module and
# rewrites each test module's asserts again on every run (about 6 s of CPU per worker).
test-fast: dev-deps compilemessages
	@PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -q -n $(TEST_WORKERS) --dist worksteal -m "$(FAST_MARKERS)" --durations=15

# mypy, configured in pyproject.toml ([tool.mypy]: the files it checks and how strictly).
typecheck: dev-deps
	@$(BIN)/mypy

lint: dev-deps
	@$(BIN)/ruff check .
	@$(BIN)/ruff format --check .

format: dev-deps
	@$(BIN)/ruff check --fix .
	@$(BIN)/ruff format .

clean:
	rm -rf staticfiles .pytest_cache .ruff_cache .mypy_cache
	find . -path ./$(VENV) -prune -o -name '*.mo' -print -delete
