"""The layers of docs/architecture.md, kept true: each layer (a package with every module in it,
or a single-file layer of the table), imported alone in a fresh process and put to work, pulls in
nothing above it (at import time and at run time)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Leaves any layer may use.
LEAVES = (
    "bot.limits",
    "bot.errors",
    "bot.cachedir",
    "bot.collector",
    "bot.once",
    "bot.dburl",
    "bot.this_process",
    "bot.reach",
    "bot.sizes",
    "bot.own_thread",
)

SEARCH_BANS = ("discord", "aiosqlite", "pydantic_settings")
# term_*: a server's own terms between the glossary layer and the store
TERMS = ("bot.term_storage", "bot.term_log", "bot.glossary", "bot.storage")
TERM_BANS = ("discord", "rapidfuzz", "numpy", "pydantic_settings")

# layer -> (what of the bot it may load, libraries it must not load, a representative run)
LAYERS: dict[str, tuple[tuple[str, ...], tuple[str, ...], str]] = {
    "bot.glossary": (
        ("bot.glossary",),
        ("discord", "aiosqlite", "rapidfuzz", "numpy", "pydantic_settings"),
        "from bot.glossary import load_glossary, inspect_glossary\n"
        "from bot.glossary.names import entry_names\n"
        "glossary = load_glossary()\n"
        "inspect_glossary()\n"
        "assert entry_names(glossary).owners\n",
    ),
    "bot.search": (
        ("bot.search", "bot.glossary"),
        SEARCH_BANS,
        "from bot.glossary import load_glossary\n"
        "from bot.search import SearchIndex\n"
        "index = SearchIndex.build(load_glossary())\n"
        "assert index.search('kv cahce').entry is not None\n"
        "index.search('what is a transformer')\n"
        "assert index.autocomplete('kv', {'kvc': 'kv-cache'})\n"
        "index.find_terms('the KV cache grows with context', None)\n",
    ),
    "bot.cards": (
        ("bot.cards", "bot.search", "bot.glossary"),
        ("aiosqlite", "pydantic_settings"),
        "from bot.glossary import load_glossary\n"
        "from bot.search import SearchIndex\n"
        "from bot.cards.embed import render_card\n"
        "from bot.cards.text import render_result_text\n"
        "glossary = load_glossary()\n"
        "result = SearchIndex.build(glossary).search('kv cache')\n"
        "render_card(result.entry, glossary)\n"
        "render_result_text(result, glossary)\n",
    ),
    "bot.storage": (
        ("bot.storage",),
        ("discord", "rapidfuzz", "numpy", "pydantic", "pydantic_settings"),
        "import asyncio, tempfile, pathlib\n"
        "from bot.storage import Store\n"
        "async def work():\n"
        "    path = pathlib.Path(tempfile.mkdtemp()) / 'layer.db'\n"
        "    store = await Store.open(path, flush_interval=None)\n"
        "    store.record_lookup(1, 'kv-cache')\n"
        "    store.record_miss(1, 'kvq')\n"
        "    await store.add_alias(1, 'kvc', 'KVC', 'kv-cache', actor_id=9)\n"
        "    await store.stats(1, None, limit=5)\n"
        "    await store.export_aliases(1)\n"
        "    await store.close()\n"
        "asyncio.run(work())\n",
    ),
    # The single-file layers of the table: imported alone (their uses run in the tests that
    # drive them).
    "bot.aliases": (("bot.aliases", "bot.search", "bot.glossary"), SEARCH_BANS, ""),
    "bot.mismatches": (("bot.mismatches", "bot.search", "bot.glossary"), SEARCH_BANS, ""),
    "bot.term_storage": (TERMS, TERM_BANS, ""),
    "bot.term_log": (TERMS, TERM_BANS, ""),
    # an import's check also reads names as aliases do (search's reading)
    "bot.term_import": ((*TERMS, "bot.term_import", "bot.aliases", "bot.search"), SEARCH_BANS, ""),
    # The command line's parser: everything a command needs is imported when it runs.
    "bot.cli": (
        ("bot.cli",),
        ("pydantic", "discord", "aiosqlite", "rapidfuzz", "numpy"),
        "from bot.cli import build_parser\n"
        "build_parser().format_help()\n"
        "build_parser().parse_args(['define', 'kv', 'cache'])\n",
    ),
}

PROBE = """
import importlib, json, pkgutil, sys
layer = sys.argv[1]
by = {}  # a module loaded -> the module of the layer whose import loaded it first
def load(name):
    before = set(sys.modules)
    importlib.import_module(name)
    by.update({m: name for m in set(sys.modules) - before})
load(layer)
package = sys.modules[layer]
if hasattr(package, "__path__"):  # every module of a package, not only what it imports itself
    for module in pkgutil.walk_packages(package.__path__, layer + "."):
        if module.name.rsplit(".", 1)[-1] != "cli":  # a command-line edge, the top layer
            load(module.name)
after_import = sorted(sys.modules)
exec(sys.argv[2])
print(json.dumps({"import": after_import, "run": sorted(sys.modules), "by": by}))
"""


def probed(probe: str, *args: str, env: dict[str, str] | None = None) -> Any:
    """What `probe` prints (JSON), run in a fresh interpreter with `args`."""
    done = subprocess.run(
        [sys.executable, "-c", probe, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("layer", list(LAYERS))
def test_a_layer_loads_nothing_above_it(layer: str) -> None:
    allowed, libraries, work = LAYERS[layer]
    loaded = probed(PROBE, layer, work)
    for moment in ("import", "run"):
        ours = [m for m in loaded[moment] if m.startswith("bot.")]
        above = [m for m in ours if not m.startswith((*allowed, *LEAVES))]
        loaders = sorted({loaded["by"].get(m, "its run") for m in above})
        assert above == [], f"{layer} loads {above} at {moment} time (through {loaders})"
        banned = [m for m in loaded[moment] if m.split(".")[0] in libraries]
        assert sorted({m.split(".")[0] for m in banned}) == [], f"{layer} at {moment} time"


def test_the_layer_table_names_every_package() -> None:
    packages = {p.name for p in (ROOT / "bot").iterdir() if (p / "__init__.py").is_file()}
    layers = {name.split(".")[1] for name in LAYERS}
    assert packages - {"discord_app"} == {name for name in layers if (ROOT / "bot" / name).is_dir()}


# Inside search, the question rules are given the names and entries: they never load the index.
RULES_PROBE = """
import json, sys
import bot.search.questions
print(json.dumps(sorted(sys.modules)))
"""


def test_the_question_rules_load_nothing_of_the_index() -> None:
    loaded = probed(RULES_PROBE)
    assert "bot.search.questions" in loaded
    assert "bot.search.index" not in loaded


# A command imports only what it uses (start-up time: bench/startup_bench.py).
COMMAND_IMPORTS: dict[str, tuple[list[str], tuple[str, ...]]] = {
    "--help": (["--help"], ("numpy", "pydantic", "discord", "bot.glossary", "bot.search")),
    # rtoml for TOML, not a Python parser; plain classes, not dataclasses (nor the inspect it
    # loads); no cache of any kind.
    "check": (
        ["check", "-q"],
        (
            "numpy",
            "pydantic",
            "discord",
            "rapidfuzz",
            "bot.search",
            "tomllib",
            "tomli",
            "dataclasses",
            "inspect",
            "bot.glossary.cache",
        ),
    ),
    # A name settles it: the names alone (no numpy, no rapidfuzz, no other stage), no pydantic,
    # the glossary from the define cache.
    "define": (
        ["define", "kv", "cache"],
        (
            "pydantic",
            "discord",
            "aiosqlite",
            "rtoml",
            "numpy",
            "rapidfuzz",
            "bot.search.semantic",
            "bot.search.fulltext",
            "bot.search.trigrams",
            "bot.search.similarity",
            "bot.search.completion",
        ),
    ),
}

COMMAND_PROBE = """
import contextlib, io, json, sys
from bot.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
    status = main(sys.argv[1:])
print(json.dumps(sorted(sys.modules)))
"""


@pytest.mark.parametrize("command", list(COMMAND_IMPORTS))
def test_a_command_imports_only_what_it_uses(command: str, tmp_path: Path) -> None:
    argv, banned = COMMAND_IMPORTS[command]
    env = {**os.environ, "GLOSSARY_CACHE_DIR": str(tmp_path)}
    probed(COMMAND_PROBE, *argv, env=env)  # a second run of define finds its glossary cached
    loaded = probed(COMMAND_PROBE, *argv, env=env)
    found = [m for m in loaded if m.startswith(banned)]
    assert found == [], f"glossary-bot {' '.join(argv)} imports {found}"
