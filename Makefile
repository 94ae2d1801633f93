# Two commands do all the set-up: `make run` runs the bot, `make test` runs the checks and tests.
# Each creates the virtual environment in .venv on first use, from the locked, hashed requirements
# (requirements/*.txt, exported from uv.lock): `make run` installs what the bot needs to run,
# `make test` adds the test tools. `make lock` refreshes the lock after a change to pyproject.toml.
VENV ?= .venv
# The interpreter .venv is made with: Python 3.11 or newer (`make run PYTHON=python3.12`).
PYTHON ?= python3
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check
# The lock tool itself, pinned; it lives in its own environment and only `make lock` needs it.
UV_VERSION := 0.13.9
LOCK_VENV := .venv-lock
# `make lock LOCK_FLAGS=--upgrade` moves every pin to the newest release the ranges allow.
LOCK_FLAGS ?=

.PHONY: run lint test bench smoke image lock

# The bot and its run-time dependencies; the project itself is installed without build isolation
# so that its build backend (requirements/build.txt) is pinned too.
$(BIN)/glossary-bot: pyproject.toml requirements/build.txt requirements/run.txt
	@test -x $(BIN)/python || $(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and \
		"Glossary Bot needs Python 3.11 or newer; $(PYTHON) is " + sys.version.split()[0] + \
		": name another with PYTHON=, e.g. make run PYTHON=python3.11")'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) --require-hashes -r requirements/build.txt -r requirements/run.txt
	$(PIP) --no-deps --no-build-isolation -e .
	touch $@

# The test tools on top (ruff, mypy, hadolint, pytest, hypothesis).
$(BIN)/pytest: $(BIN)/glossary-bot requirements/test.txt
	$(PIP) --require-hashes -r requirements/build.txt -r requirements/test.txt
	touch $@

run: $(BIN)/glossary-bot
	$(BIN)/glossary-bot run

# The checks that read the code without running it; `make test` runs them too.
lint: $(BIN)/pytest
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy bot
	$(BIN)/hadolint Dockerfile

# The lint runs beside the suite (ci67): on a fresh checkout mypy alone takes ~20 s with its
# cache empty, while the suite's workers spend much of their time waiting on the processes they
# start. Its output is kept and shown after the suite's; either failing fails `make test` (a
# lint failure is told after the suite, not before it: `make lint` alone says it at once).
test: $(BIN)/pytest
	@lint_log=$$(mktemp); \
	$(MAKE) --no-print-directory lint >"$$lint_log" 2>&1 & lint=$$!; \
	trap 'kill $$lint 2>/dev/null' INT TERM; trap 'kill $$lint 2>/dev/null; rm -f "$$lint_log"' EXIT; \
	echo "$(BIN)/python -m pytest  (make lint beside it: its output follows the suite's)"; \
	$(BIN)/python -m pytest; suite=$$?; \
	wait $$lint; linted=$$?; cat "$$lint_log"; \
	if [ $$linted -ne 0 ]; then echo "make test: make lint failed (its output above)" >&2; fi; \
	[ $$suite -eq 0 ] && [ $$linted -eq 0 ]

bench: $(BIN)/pytest
	$(PIP) --require-hashes -r requirements/build.txt -r requirements/bench.txt
	$(BIN)/python bench/search_bench.py
	$(BIN)/python bench/alias_bench.py
	$(BIN)/python bench/storage_bench.py
	$(BIN)/python bench/load_test.py --users 50 --seconds 60

# The container image, built reproducibly (tools/build-image.sh): the same commit gives the same
# layers. `make image IMAGE=name:tag` to name it otherwise.
IMAGE ?= glossary-bot:latest
image:
	tools/build-image.sh . $(IMAGE)

smoke: $(BIN)/pytest
	bash tests/container/smoke.sh

# Resolve pyproject.toml into uv.lock (keeping existing pins unless LOCK_FLAGS=--upgrade), then
# export the hashed requirement files that pip installs from here, in CI and in the Dockerfile.
lock:
	test -x $(LOCK_VENV)/bin/uv || { $(PYTHON) -m venv $(LOCK_VENV) && \
		$(LOCK_VENV)/bin/python -m pip install --quiet uv==$(UV_VERSION); }
	$(LOCK_VENV)/bin/uv lock $(LOCK_FLAGS)
	$(LOCK_VENV)/bin/uv export --frozen --quiet --no-header --no-emit-project --no-dev \
		-o requirements/run.txt
	$(LOCK_VENV)/bin/uv export --frozen --quiet --no-header --no-emit-project --no-dev \
		--extra test -o requirements/test.txt
	$(LOCK_VENV)/bin/uv export --frozen --quiet --no-header --no-emit-project --no-dev \
		--extra test --extra bench -o requirements/bench.txt
	$(LOCK_VENV)/bin/uv export --frozen --quiet --no-header --no-emit-project --only-group build \
		-o requirements/build.txt
