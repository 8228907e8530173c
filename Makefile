# Tablée — two commands on a fresh machine: `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell sha1sum requirements.txt | cut -c1-12)
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_WORKERS ?= 2
UV_VERSION := 0.13.9

.PHONY: install native messages run serve test test-fast test-slow test-all lint lint-fast typecheck e2e bench mutation lock clean screenshots

$(STAMP): requirements.txt
	@echo "==> Python packages into $(VENV) (uv: about 15 s on a fresh machine)"
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@# uv installs the pinned tree in parallel, with progress, in seconds where pip took minutes; pip is the
	@# fallback. --isolated: this machine's pip configuration is not the project's.
	@$(PY) -m pip install --isolated --disable-pip-version-check --quiet "uv==$(UV_VERSION)" \
	  && $(VENV)/bin/uv pip install --python $(PY) -r requirements.txt \
	  || $(PY) -m pip install --disable-pip-version-check --progress-bar on -r requirements.txt
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

install: $(STAMP)

## make native: compile the TRAGIC engine with mypyc into .native/ (tragic/engine/native.py says why and how);
## one to three minutes when the engine's sources changed, nothing otherwise; without a C compiler, pure Python.
## `make run` starts it in the background and never waits for it.
native: install
	$(PY) scripts/build_native.py

messages: install
	@$(PY) scripts/compile_messages.py

## make run: install, migrate, load the demo campaign and serve on http://$(HOST):$(PORT) (ASGI, WebSockets).
run: messages
	@echo "==> database (migrations, static files, the demo campaign)"
	@$(PY) manage.py migrate --noinput | grep -v '^  No migrations to apply' || true
	@$(PY) manage.py collectstatic --noinput --verbosity 0
	@HOST=$(HOST) PORT=$(PORT) $(PY) manage.py load_demo
	@$(PY) scripts/build_native.py --background
	@echo "==> serving http://$(HOST):$(PORT)/ (Ctrl+C stops it; another port: make run PORT=8001)"
	@$(PY) -m uvicorn config.asgi:application --host $(HOST) --port $(PORT) --no-access-log --no-proxy-headers --timeout-graceful-shutdown 5

serve: messages
	$(PY) -m uvicorn config.asgi:application --host $(HOST) --port $(PORT) --no-access-log --no-proxy-headers --timeout-graceful-shutdown 5

PYTEST := $(PY) -m pytest -n $(PYTEST_WORKERS) --dist worksteal --ignore=tests/e2e --durations=15

## make test: the lint, import contracts and migrations check, then the fast suite (the whole correctness suite
## without the `slow` marker) with mypy checking the types beside it (scripts/with_types.sh); a progress line
## every 10 s.
test: lint-fast
	@scripts/with_types.sh $(PYTEST) -m "not e2e and not slow"

## make test-fast: the fast suite alone, without the lint (`make test` runs both).
test-fast: messages
	$(PYTEST) -m "not e2e and not slow"

## make test-slow: the long runs only (soaks, whole-game rebuilds, exhaustive sweeps, long property runs).
test-slow: messages
	$(PYTEST) -m "slow and not e2e"

## make test-all: what CI runs on one database: the lint, the fast suite under coverage.py (every app module
## at 80 % or more without the slow tests: scripts/coverage_floor.py), the slow tests, the browser tests.
test-all: lint-fast
	@mkdir -p var
	@scripts/with_types.sh $(PYTEST) -m "not e2e and not slow" --cov --cov-report=json:var/coverage.json --cov-report=
	$(PY) scripts/coverage_floor.py var/coverage.json
	$(MAKE) --no-print-directory test-slow
	$(MAKE) --no-print-directory e2e

## make lint: everything but the tests: ruff, the import contracts, the migrations check and mypy.
lint: lint-fast typecheck

lint-fast: messages
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache
	$(PY) manage.py makemigrations --check --dry-run > /dev/null

## make typecheck: mypy with django-stubs (strict on rules/, engine/ and core; see [tool.mypy] in pyproject.toml).
## Part of `make lint`; `make test` runs it beside the tests: 25-40 s from a cold cache on the 2-core machine, 2 s warm.
typecheck: install
	$(VENV)/bin/mypy accounts campaigns characters config conflicts core frag states tragic

## make e2e: the browser tests, two at a time (each pytest-xdist worker runs its own server and Chromium).
e2e: messages
	@command -v chromium >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist worksteal -m e2e tests/e2e --durations=10

## make screenshots: the sheet, roll dialog, Sequence and board at 390/1280 px in FR/EN, into docs/screenshots/.
screenshots: messages
	$(PY) scripts/screenshots.py

BENCH_STAMP := $(VENV)/.bench-$(shell sha1sum requirements-bench.txt | cut -c1-12)

$(BENCH_STAMP): requirements-bench.txt $(STAMP)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-bench.txt
	rm -f $(VENV)/.bench-*
	touch $(BENCH_STAMP)

## make bench: the benchmarks (docs/benchmarks.md); installs the bench-only requirements first.
bench: native $(BENCH_STAMP)
	$(PY) -m bench

## make mutation: mutmut on the pure rules packages (every mutant), then on a seeded random sample of each game
## engine's rule modules (MUTATION_SAMPLE mutants each, drawn from the mutants the first run made), one mutant at a
## time at the lowest priority, then the score per package and module (docs/rules-coverage.md, « Mutation testing of
## the rules »); hours on a loaded machine. Each `mutmut run` first rebuilds every mutant and checks the tests pass.
MUTATION_SAMPLE ?= 80
mutation: $(BENCH_STAMP)
	TABLEE_ENGINE=python nice -n 19 $(VENV)/bin/mutmut run --max-children 1 "states.rules.*" "conflicts.rules.*" \
	  "characters.rules.*"
	TABLEE_ENGINE=python nice -n 19 $(VENV)/bin/mutmut run --max-children 1 \
	  $$($(PY) scripts/mutation_scores.py --sample $(MUTATION_SAMPLE) 27 tragic.engine) \
	  $$($(PY) scripts/mutation_scores.py --sample $(MUTATION_SAMPLE) 27 frag.engine)
	$(PY) scripts/mutation_scores.py

lock:  # the bench-only pins stay in requirements-bench.txt; uv is the installer, not a dependency
	$(PY) -m pip freeze --exclude-editable | grep -v '^uv==' | sort | grep -vxFf <(grep -v '^#' requirements-bench.txt) > requirements.txt

clean:
	rm -rf $(VENV) .native staticfiles .pytest_cache .ruff_cache .mypy_cache
