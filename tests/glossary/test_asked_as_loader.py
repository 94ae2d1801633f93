"""`asked-as/*.toml` beside a glossary: loaded onto entries, checked like the other data."""

from __future__ import annotations

from pathlib import Path

from bot.glossary import inspect_glossary, load_glossary

ENTRY = """
[[entries]]
id = "{id}"
title = "{title}"
category = "Fundamentals"
definition = "A definition of {title}."
"""


def _folder(tmp_path: Path, asked_as: str) -> Path:
    (tmp_path / "terms.toml").write_text(
        ENTRY.format(id="kv-cache", title="KV Cache") + ENTRY.format(id="rag", title="RAG"),
        encoding="utf-8",
    )
    (tmp_path / "asked-as").mkdir()
    (tmp_path / "asked-as" / "part-1.toml").write_text(asked_as, encoding="utf-8")
    return tmp_path


def _errors(folder: Path) -> list[str]:
    _, problems = inspect_glossary([folder])
    return [str(p) for p in problems if p.severity == "error"]


def test_phrasings_land_on_their_entries(tmp_path: Path) -> None:
    folder = _folder(
        tmp_path, '["kv-cache"]\nasked_as = ["remembering past keys", "remembering past keys"]\n'
    )
    glossary = load_glossary([folder])
    assert glossary["kv-cache"].asked_as == ("remembering past keys",)  # a repeat kept once
    assert glossary["rag"].asked_as == ()


def test_an_unknown_id_is_an_error_naming_it(tmp_path: Path) -> None:
    errors = _errors(_folder(tmp_path, '["kv-cahce"]\nasked_as = ["past keys"]\n'))
    assert len(errors) == 1
    assert "kv-cahce" in errors[0]
    assert "names no entry" in errors[0]


def test_a_malformed_table_is_an_error_naming_file_and_entry(tmp_path: Path) -> None:
    errors = _errors(_folder(tmp_path, '["rag"]\nasked_as = "not a list"\n'))
    assert len(errors) == 1
    assert "asked-as/part-1.toml" in errors[0]
    assert "[rag]" in errors[0]


def test_an_unreadable_file_is_an_error_not_a_crash(tmp_path: Path) -> None:
    errors = _errors(_folder(tmp_path, '["rag"\nasked_as = [\n'))
    assert len(errors) == 1
    assert "cannot read" in errors[0]


def test_a_runaway_phrasing_is_refused(tmp_path: Path) -> None:
    errors = _errors(_folder(tmp_path, f'["rag"]\nasked_as = ["{"x" * 400}"]\n'))
    assert any("longer than" in e for e in errors)


def test_phrasings_across_files_keep_the_order_first_met_each_once(tmp_path: Path) -> None:
    folder = _folder(tmp_path, '["kv-cache"]\nasked_as = ["b keys", " a keys ", "b keys"]\n')
    (folder / "asked-as" / "part-2.toml").write_text(
        '["kv-cache"]\nasked_as = ["a keys", "c keys", "c keys ", "b keys"]\n', encoding="utf-8"
    )
    glossary = load_glossary([folder])
    assert glossary["kv-cache"].asked_as == ("b keys", "a keys", "c keys")
