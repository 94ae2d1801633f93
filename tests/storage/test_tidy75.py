"""tidy75: outsider75's and left75's loose ends, on the operators' side."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from bot.term_storage import TermChange, change_terms

BLORP = ServerTerm(
    id="t1", title="Blorptastic Frobnicator", definition="Ours.", category="Fundamentals"
)


@pytest.fixture(autouse=True)
def _no_settings_around(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    monkeypatch.delenv("GLOSSARY_PATHS", raising=False)


def _seed(path: Path) -> None:
    async def fill() -> None:
        store = await Store.open(path, flush_interval=None)
        for query in ("blorptastic frobnicator", "qwzx vorple", "kv cache"):
            store.record_miss(1, query)  # "kv cache": a bundled name, since an upgrade say
        await change_terms(store, 1, lambda *_: (TermChange(put=(BLORP,)), None), 7)
        await store.close()

    asyncio.run(fill())


def _misses(argv: list[str], capsys: pytest.CaptureFixture[str]) -> set[str]:
    assert main([*argv, "--json"]) == 0
    return {m["query"] for m in json.loads(capsys.readouterr().out)["top_misses"]}


def test_stats_leaves_out_misses_answered_by_a_name_now(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """tidy75 item 1 (outsider75's /stats change): `glossary-bot stats` still listed a miss
    that now opens a card by its own name (a server term added since, a bundled entry): the
    CLI reads the misses as /stats does. All servers: judged by the glossary the bot serves."""
    path = tmp_path / "bot.db"
    _seed(path)
    one = _misses(["stats", "--db", str(path), "--guild", "1"], capsys)
    assert one == {"qwzx vorple"}
    every = _misses(["stats", "--db", str(path)], capsys)
    assert every == {"qwzx vorple", "blorptastic frobnicator"}
    assert main(["stats", "--db", str(path), "--guild", "1"]) == 0
    text = capsys.readouterr().out
    assert "qwzx vorple" in text
    assert "blorptastic" not in text
