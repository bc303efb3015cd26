# BotBench: `make run` serves the demo site with a worker; `make test` runs the whole suite.
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
# The Spanish catalogue, compiled from its source (scripts/messages writes the source).
MO := locale/es/LC_MESSAGES/django.mo
# `make run HOST=0.0.0.0` serves phones on the school network (see the README's classroom part).
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint format bench system-deps migrate demo worker clean help

help:
	@echo "make run    - install, migrate, load demo data, serve http://127.0.0.1:8000 with a Celery worker"
	@echo "              (make run HOST=0.0.0.0 PORT=8000: reachable from phones on the school network)"
	@echo "make test   - install, lint, run the whole test suite (browser tests included)"
	@echo "make bench  - run the benchmarks in benchmarks/"

$(BIN)/python:
	@PY="$$(scripts/find-python)" || exit 1; \
	echo "Creating $(VENV) with $$PY"; \
	"$$PY" -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP) $(NODE_STAMP) $(MO)

$(MO): locale/es/LC_MESSAGES/django.po | $(STAMP) system-deps
	$(BIN)/python manage.py compilemessages --locale=es >/dev/null

# Test-only tools from the npm registry (package.json): axe-core, injected into every page the
# browser tests reach, and vnu-jar, the W3C Nu HTML checker (run with Debian's Java).
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	@touch $(NODE_STAMP)

# Chromium (browser tests), poppler (PDF previews), Java (the Nu HTML checker), gettext (the
# Spanish catalogue) and nginx (docker/nginx.conf run in front of a stream) come from Debian's
# packages.
system-deps:
	@missing=""; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	command -v pdftoppm >/dev/null || missing="$$missing poppler-utils"; \
	command -v java >/dev/null || missing="$$missing default-jre-headless"; \
	command -v msgfmt >/dev/null || missing="$$missing gettext"; \
	command -v nginx >/dev/null || missing="$$missing nginx-light"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "Installing$$missing from Debian's packages"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "Missing system packages:$$missing (install them with: sudo apt-get install$$missing)"; \
	  fi; \
	fi

migrate: $(STAMP) $(MO)
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py seed_demo

run: demo
	@HOST='$(HOST)' PORT='$(PORT)' scripts/run-dev

# One worker on one machine, with Celery beat inside it, as `make run` runs its own: a
# development set-up with a single process. Where workers are several (compose, Kubernetes) beat
# runs once, on its own (docker/compose.yaml's `beat`), and workers schedule nothing.
worker: $(STAMP)
	$(BIN)/celery -A config worker --beat --loglevel=INFO --concurrency=2

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	PYTHON=$(BIN)/python scripts/messages --check

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

test: $(STAMP) $(NODE_STAMP) $(MO) system-deps lint
	$(BIN)/pytest $(PYTEST_ARGS)

bench: $(STAMP)
	@for script in benchmarks/bench_*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) node_modules $(MO) var staticfiles test-output .pytest_cache .ruff_cache
