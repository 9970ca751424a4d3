# One entry point for developers and CI. `make run` and `make test` work on a
# fresh machine with only Python 3.11+ (and Node.js for the proto tooling).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TS_CLIENT := clients/typescript/dist/index.js
EXTRAS := dev,bench,report,mcp,tracing
# uv installs the same pinned packages as pip in about 15 s instead of 2 minutes on a fresh
# machine (CI's budget); pip stays the fallback.
UV_VERSION := 0.13.8

.PHONY: install browser run test test-unit gen lint typecheck arch buf format bench-smoke clean

$(STAMP): pyproject.toml package.json package-lock.json
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet uv==$(UV_VERSION)
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[$(EXTRAS)]' \
		|| $(BIN)/pip install --quiet -e '.[$(EXTRAS)]'
	npm ci --no-audit --no-fund --loglevel=error
	touch $(STAMP)

# The TypeScript client, built with the pinned tsc from the npm lock (its types are generated from the protos).
$(TS_CLIENT): $(STAMP) $(wildcard clients/typescript/src/*.ts) clients/typescript/tsconfig.json
	npx --no-install tsc -p clients/typescript

install: $(STAMP) $(TS_CLIENT)

# The console's browser tests drive Debian's headless Chromium (Playwright is a pinned dev package; no
# browser is downloaded). Installed here when missing: as root directly, else through sudo.
CHROMIUM := /usr/bin/chromium
browser:
	@test -x $(CHROMIUM) || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }
	@test -x $(CHROMIUM) || { echo "make browser: $(CHROMIUM) is still missing (install Debian's chromium)"; exit 1; }

run: install
	$(BIN)/memoryd up

test: install browser
	$(BIN)/pytest -ra -n 2 --durations=15

test-unit: install
	$(BIN)/pytest -ra tests/unit

gen: install
	$(BIN)/python scripts/gen_protos.py

lint: install
	$(BIN)/ruff format --check memoryd workers tests scripts examples
	$(BIN)/ruff check memoryd workers tests scripts examples
	$(BIN)/lint-imports

typecheck: install
	$(BIN)/mypy

buf: install
	npx --no-install buf lint

format: install
	$(BIN)/ruff format memoryd workers tests scripts examples
	$(BIN)/ruff check --fix memoryd workers tests scripts examples

bench-smoke: install
	$(BIN)/pytest -ra tests/bench

clean:
	rm -rf $(VENV) node_modules var .pytest_cache .mypy_cache .ruff_cache
