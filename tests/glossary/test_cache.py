"""The glossary `define` keeps on disk: only ever the one a fresh load of the same data gives."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bot.glossary import GlossaryError, bundled_data_dir, load_glossary
from bot.glossary.cache import PREFIX, content_key, load_glossary_cached


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(bundled_data_dir(), folder)
    return folder


def cached_files(cache: Path) -> list[Path]:
    return sorted(cache.glob(f"{PREFIX}*.json"))


def test_a_cached_glossary_is_the_fresh_one(data: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    fresh = load_glossary([data])
    first = load_glossary_cached(data, cache)  # loads and stores
    second = load_glossary_cached(data, cache)  # reads back
    assert len(cached_files(cache)) == 1
    for glossary in (first, second):
        assert glossary.entries == fresh.entries
        assert glossary.sources == fresh.sources
    assert [hash(e) for e in second] == [hash(e) for e in fresh]


def test_the_cache_is_what_is_read_while_nothing_changed(data: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    load_glossary_cached(data, cache)
    (stored,) = cached_files(cache)
    payload = json.loads(stored.read_text())
    payload["entries"][0]["title"] = "Written into the cache"
    stored.write_text(json.dumps(payload))
    assert load_glossary_cached(data, cache).entries[0].title == "Written into the cache"


def test_any_change_to_a_data_file_makes_a_fresh_load(data: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    files = sorted(p for p in data.rglob("*") if p.is_file())
    assert len(files) >= 5
    keys = {content_key(data)}
    for file in files:  # one byte more in each file in turn: a new key each time
        original = file.read_bytes()
        file.write_bytes(original + b"\n")
        keys.add(content_key(data))
        file.write_bytes(original)
    assert len(keys) == len(files) + 1
    added = data / "asked-as" / "zz-new.toml"
    added.write_text('["kv-cache"]\nasked_as = ["the memo"]\n')
    assert content_key(data) not in keys
    added.unlink()

    load_glossary_cached(data, cache)
    foundations = data / "foundations.toml"
    text = foundations.read_text("utf-8")
    foundations.write_text(text.replace('title = "', 'title = "Edited ', 1))
    edited = load_glossary_cached(data, cache)
    assert any(e.title.startswith("Edited ") for e in edited)
    assert edited.entries == load_glossary([data]).entries
    assert len(cached_files(cache)) == 1  # the earlier version's file is gone


def test_a_renamed_file_is_a_change(data: Path) -> None:
    before = content_key(data)
    overlay = data / "asked-as"
    (first, *_) = sorted(overlay.glob("*.toml"))
    first.rename(first.with_name("renamed-" + first.name))
    assert content_key(data) != before


def test_a_damaged_cache_file_is_passed_over_and_replaced(data: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    load_glossary_cached(data, cache)
    (stored,) = cached_files(cache)
    for damage in ("", "{", '{"sources": [], "entries": [{"id": 1}]}', "[]", '{"entries": 3}'):
        stored.write_text(damage)
        assert load_glossary_cached(data, cache).entries == load_glossary([data]).entries
        assert json.loads(stored.read_text())["entries"]  # written anew


def test_an_unwritable_cache_costs_only_the_load(data: Path, tmp_path: Path) -> None:
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("x")
    assert load_glossary_cached(data, not_a_dir).entries == load_glossary([data]).entries


def test_bad_data_is_refused_and_never_cached(data: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    (data / "foundations.toml").write_text('[[entries]]\nid = "x"\n')
    with pytest.raises(GlossaryError):
        load_glossary_cached(data, cache)
    assert cached_files(cache) == []
