"""`kinds/*.toml` beside a glossary: each entry's kind loaded onto it, checked like the other data;
and the bundled file, written blind from the titles, covering every entry."""

from __future__ import annotations

from pathlib import Path

from bot.glossary import inspect_glossary, load_glossary
from bot.glossary.models import DOERS, KINDS
from bot.glossary.server_terms import TermDraft, check_draft, server_glossary

ENTRY = """
[[entries]]
id = "{id}"
title = "{title}"
category = "Fundamentals"
definition = "A definition of {title}."
"""


def _folder(tmp_path: Path, kinds: str | None) -> Path:
    (tmp_path / "terms.toml").write_text(
        ENTRY.format(id="vllm", title="vLLM") + ENTRY.format(id="kv-cache", title="KV Cache"),
        encoding="utf-8",
    )
    if kinds is not None:
        (tmp_path / "kinds").mkdir()
        (tmp_path / "kinds" / "k.toml").write_text(kinds, encoding="utf-8")
    return tmp_path


def _errors(folder: Path) -> list[str]:
    _, problems = inspect_glossary([folder])
    return [str(p) for p in problems if p.severity == "error"]


def test_kinds_land_on_their_entries(tmp_path: Path) -> None:
    glossary = load_glossary([_folder(tmp_path, 'vllm = "tool"\n"kv-cache" = "method"\n')])
    assert (glossary["vllm"].kind, glossary["kv-cache"].kind) == ("tool", "method")


def test_a_folder_without_the_file_has_no_kinds_and_no_problem(tmp_path: Path) -> None:
    folder = _folder(tmp_path, None)
    assert _errors(folder) == []
    assert {e.kind for e in load_glossary([folder])} == {None}


def test_an_unknown_id_is_an_error_naming_file_and_line(tmp_path: Path) -> None:
    errors = _errors(_folder(tmp_path, 'vllm = "tool"\nkv-cache = "method"\nvlm = "tool"\n'))
    assert errors == [f"{tmp_path / 'kinds' / 'k.toml'}:3 [vlm]: error: names no entry: 'vlm'"]


def test_an_unknown_kind_is_an_error_naming_file_and_entry(tmp_path: Path) -> None:
    errors = _errors(_folder(tmp_path, 'vllm = "software"\nkv-cache = "method"\n'))
    assert len(errors) == 1
    assert errors[0].startswith(f"{tmp_path / 'kinds' / 'k.toml'}:1 [vllm]: error: unknown kind")
    assert "'software'" in errors[0]


def test_an_entry_with_no_kind_is_a_warning_at_the_entry(tmp_path: Path) -> None:
    """At the entry's file and line (left67: it named the kinds file, the bundled one for an
    entry of an operator's own folder, which they cannot edit)."""
    folder = _folder(tmp_path, 'vllm = "tool"\n')
    _, problems = inspect_glossary([folder])
    assert [str(p) for p in problems] == [
        f"{tmp_path / 'terms.toml'}:9 [kv-cache]: warning: "
        "the entry has no kind: the search reads it as unknown (give it one in a kinds/*.toml "
        "of a folder served with it)"
    ]
    assert load_glossary([folder])["kv-cache"].kind is None


def test_an_operators_folder_beside_the_bundled_data_gives_its_entries_kinds(
    tmp_path: Path,
) -> None:
    """What the warning says to do, as an operator does it (readme49): not the bundled kinds
    file, which an operator cannot edit, but a `kinds/` of their own folder."""
    from bot.glossary import bundled_data_dir

    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "mine.toml").write_text(ENTRY.format(id="zorblax", title="Zorblax"), "utf-8")
    _, problems = inspect_glossary([bundled_data_dir(), mine])
    assert [p.entry for p in problems] == ["zorblax"]
    assert "kinds/*.toml of a folder served with it" in problems[0].message
    (mine / "kinds").mkdir()
    (mine / "kinds" / "mine.toml").write_text('zorblax = "concept"\n', "utf-8")
    glossary, problems = inspect_glossary([bundled_data_dir(), mine])
    assert problems == []
    assert glossary["zorblax"].kind == "concept"


def test_an_unreadable_file_is_an_error_not_a_crash(tmp_path: Path) -> None:
    errors = _errors(_folder(tmp_path, 'vllm = "tool\n'))
    assert len(errors) == 1
    assert "k.toml" in errors[0]
    assert "cannot read" in errors[0]


def test_every_bundled_entry_has_a_kind_of_the_four() -> None:
    glossary, problems = inspect_glossary()
    assert [str(p) for p in problems if "kind" in p.message] == []
    assert {e.kind for e in glossary} == set(KINDS)
    # the readings the search rests on
    assert {glossary[i].kind for i in ("vllm", "llama-cpp", "pytorch", "gguf")} == {"tool"}
    assert {glossary[i].kind for i in ("llama", "deepseek", "gpt-2")} == {"model"}
    assert {glossary[i].kind for i in ("paged-attention", "quantization", "lora-qlora")} == {
        "method"
    }
    assert {"tool", "model"} == DOERS


def test_a_servers_own_term_has_no_kind_and_its_wording_keeps_the_entrys() -> None:
    bundled = load_glossary()
    own = check_draft(
        TermDraft(title="Raid Night", definition="d", category="Fundamentals"), bundled, []
    ).term
    wording = check_draft(
        TermDraft(title="key-value cache", definition="ours", related="Attention"), bundled, []
    ).term
    assert own is not None
    assert wording is not None
    served = server_glossary(bundled, [own, wording])
    assert served[own.id].kind is None
    assert served["kv-cache"].kind == bundled["kv-cache"].kind == "method"
