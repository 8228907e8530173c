# Tablée — two commands on a fresh machine: `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell sha1sum requirements.txt | cut -c1-12)
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_WORKERS ?= 2

.PHONY: install native messages run serve test lint typecheck e2e bench lock clean screenshots

$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

## make native: compile the TRAGIC engine with mypyc into .native/ (tragic/engine/native.py says why and how);
## about a minute when the engine's sources changed, nothing otherwise; without a C compiler, pure Python.
native: install
	$(PY) scripts/build_native.py

messages: install
	$(PY) scripts/compile_messages.py

## make run: install, migrate, load the demo campaign and serve on http://127.0.0.1:8000 (ASGI, WebSockets).
run: messages native
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0
	HOST=$(HOST) PORT=$(PORT) $(PY) manage.py load_demo
	$(PY) -m uvicorn config.asgi:application --host $(HOST) --port $(PORT) --no-access-log

serve: messages native
	$(PY) -m uvicorn config.asgi:application --host $(HOST) --port $(PORT) --no-access-log

## make test: lint, import contracts, types, then the whole suite (browser tests are `make e2e`).
test: native lint
	$(PY) -m pytest -n $(PYTEST_WORKERS) -m "not e2e" --ignore=tests/e2e

lint: messages
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache
	$(MAKE) --no-print-directory typecheck
	$(PY) manage.py makemigrations --check --dry-run > /dev/null

## make typecheck: mypy with django-stubs (strict on rules/, engine/ and core; see [tool.mypy] in pyproject.toml).
## Part of `make lint`, so of `make test`: about 25 s from a cold cache on the shared 2-core machine, 2 s warm.
typecheck: install
	$(VENV)/bin/mypy accounts campaigns characters config conflicts core frag states tragic

e2e: messages native
	@command -v chromium >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)
	$(PY) -m pytest -p no:xdist -m e2e tests/e2e

## make screenshots: the sheet, roll dialog, Sequence and board at 390/1280 px in FR/EN, into docs/screenshots/.
screenshots: messages
	$(PY) scripts/screenshots.py

BENCH_STAMP := $(VENV)/.bench-$(shell sha1sum requirements-bench.txt | cut -c1-12)

$(BENCH_STAMP): requirements-bench.txt $(STAMP)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-bench.txt
	rm -f $(VENV)/.bench-*
	touch $(BENCH_STAMP)

## make bench: the benchmarks (docs/benchmarks.md); installs the bench-only requirements first.
bench: messages native $(BENCH_STAMP)
	$(PY) -m bench

lock:  # the bench-only pins stay in requirements-bench.txt
	$(PY) -m pip freeze --exclude-editable | sort | grep -vxFf <(grep -v '^#' requirements-bench.txt) > requirements.txt

clean:
	rm -rf $(VENV) .native staticfiles .pytest_cache .ruff_cache .mypy_cache
