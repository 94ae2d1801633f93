# Two commands do all the set-up: `make run` runs the bot, `make test` runs the checks and tests.
# Each creates the virtual environment in .venv on first use.
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin

.PHONY: run test bench smoke

$(BIN)/glossary-bot: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

run: $(BIN)/glossary-bot
	$(BIN)/glossary-bot run

test: $(BIN)/glossary-bot
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy bot
	$(BIN)/hadolint Dockerfile
	$(BIN)/python -m pytest

bench: $(BIN)/glossary-bot
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	$(BIN)/python bench/search_bench.py
	$(BIN)/python bench/alias_bench.py
	$(BIN)/python bench/storage_bench.py
	$(BIN)/python bench/load_test.py --users 50 --seconds 60

smoke: $(BIN)/glossary-bot
	bash tests/container/smoke.sh
