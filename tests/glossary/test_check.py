"""`glossary-bot check` and the loaders name the file and entry of every problem."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bot.cli import main
from bot.glossary import CATEGORIES, GlossaryError, inspect_glossary, load_glossary

GOOD_ENTRY = """
[[entries]]
id = "{id}"
title = "{title}"
category = "Fundamentals"
definition = "A definition of {title}."
"""


def _toml(path: Path, *entries: str) -> Path:
    path.write_text("\n".join(entries), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _in_tmp_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # `_errors` passes paths relative to it, as a user types them


def _errors(*paths: Path) -> list[str]:
    """Problems found in `paths`, given relative to the working directory (files are named so)."""
    _, problems = inspect_glossary([Path(os.path.relpath(p)) for p in paths])
    return [str(p) for p in problems if p.severity == "error"]


def test_clean_file_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _toml(tmp_path / "terms.toml", GOOD_ENTRY.format(id="alpha", title="Alpha"))
    assert main(["check", str(path)]) == 0
    assert "1 entry (1 from terms);" in capsys.readouterr().out


def test_unresolved_related_is_named(tmp_path: Path) -> None:
    entry = GOOD_ENTRY.format(id="alpha", title="Alpha") + 'related = ["nowhere"]\n'
    errors = _errors(_toml(tmp_path / "terms.toml", entry))
    assert len(errors) == 1
    assert errors[0].startswith("terms.toml:3 [alpha]: error:")
    assert "'nowhere' names no entry" in errors[0]


def test_two_entries_claiming_one_name(tmp_path: Path) -> None:
    first = GOOD_ENTRY.format(id="kv-cache", title="KV Cache")
    second = (
        GOOD_ENTRY.format(id="key-value-store", title="Key Value Store")
        + 'aliases = ["kv-cache"]\n'
    )
    errors = _errors(_toml(tmp_path / "terms.toml", first, second))
    assert any(
        "'kv-cache' is claimed by two entries" in e and "[key-value-store]" in e for e in errors
    )


def test_empty_required_field(tmp_path: Path) -> None:
    entry = (
        '[[entries]]\nid = "alpha"\ntitle = "Alpha"\ncategory = "Fundamentals"\ndefinition = ""\n'
    )
    errors = _errors(_toml(tmp_path / "terms.toml", entry))
    assert errors == ["terms.toml:2 [alpha]: error: empty definition"]


def test_text_too_long_for_discord(tmp_path: Path) -> None:
    entry = GOOD_ENTRY.format(id="alpha", title="Alpha") + f'boundary = "{"x" * 1100}"\n'
    errors = _errors(_toml(tmp_path / "terms.toml", entry))
    assert errors == ["terms.toml:3 [alpha]: error: boundary longer than 1,024 characters (1,100)"]
    long_title = GOOD_ENTRY.format(id="beta", title="B" * 300)
    assert any(
        "title longer than 256" in e for e in _errors(_toml(tmp_path / "t2.toml", long_title))
    )


def test_unknown_category_and_bad_url(tmp_path: Path) -> None:
    entry = GOOD_ENTRY.format(id="alpha", title="Alpha").replace("Fundamentals", "Astrology")
    entry += 'reference = "not a url"\n'
    errors = _errors(_toml(tmp_path / "terms.toml", entry))
    assert any("unknown category 'Astrology'" in e for e in errors)
    assert any("bad reference URL 'not a url'" in e for e in errors)


def test_duplicate_id_in_one_file(tmp_path: Path) -> None:
    entry = GOOD_ENTRY.format(id="alpha", title="Alpha")
    errors = _errors(_toml(tmp_path / "terms.toml", entry, entry.replace('"Alpha"', '"Alpha Two"')))
    assert any("a second entry with id 'alpha'" in e for e in errors)


def test_check_exits_1_and_lists_every_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = GOOD_ENTRY.format(id="alpha", title="Alpha").replace("Fundamentals", "Nope")
    bad += 'related = ["ghost"]\n'
    assert main(["check", str(_toml(tmp_path / "terms.toml", bad))]) == 1
    out = capsys.readouterr().out
    assert "unknown category 'Nope'" in out
    assert "'ghost' names no entry" in out


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("bad.json", '{"schemaVersion": 1, "topics": [', "bad.json:1: error: not valid JSON"),
        ("bad.toml", "[[entries]\nid = 1", "bad.toml: error: not valid TOML"),
        (
            "types.json",
            json.dumps(
                {
                    "schemaVersion": 1,
                    "language": "en",
                    "categories": [],
                    "topics": [
                        {
                            "id": "t1",
                            "number": "one",
                            "title": "T",
                            "category": "Fundamentals",
                            "summary": "s",
                            "definition": "d",
                            "importance": "i",
                            "boundary": "b",
                            "keywords": [],
                            "related": [],
                        }
                    ],
                }
            ),
            "types.json [t1]: error: number: Input should be a valid integer",
        ),
        (
            "missing.json",
            json.dumps(
                {
                    "schemaVersion": 1,
                    "language": "en",
                    "categories": [],
                    "topics": [{"id": "t1", "number": 1, "title": "T", "category": "Fundamentals"}],
                }
            ),
            "missing.json [t1]: error: summary: missing required field",
        ),
        (
            "unknown.toml",
            GOOD_ENTRY.format(id="alpha", title="Alpha") + 'colour = "red"\n',
            "unknown.toml:3 [alpha]: error: colour: unknown key",
        ),
        (
            "empty.md",
            "Title¶\n\nIntro.\n\nTerm¶\n\n",
            "empty.md:5 [Term]: error: heading without a definition",
        ),
    ],
)
def test_malformed_files_are_named_not_tracebacks(
    tmp_path: Path, name: str, content: str, expected: str
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    errors = _errors(path)
    assert any(e.startswith(expected) for e in errors), errors
    with pytest.raises(GlossaryError) as raised:
        load_glossary([path])
    assert name in str(raised.value)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (
            '[[entries]\nid = "a"\n',
            "bad.toml: error: not valid TOML: Unclosed array table, expected `]` "
            "(at line 1, column 11)",
        ),
        (
            '[[entries]]\nid = "a"\nid = "b"\n',
            "bad.toml: error: not valid TOML: Duplicate key `id` (at line 3, column 1)",
        ),
        # left76: rtoml's "duplicate key" named no key; named as written, a table's too.
        (
            '[[entries]]\nid = "a"\n"id" = "b"\n',
            'bad.toml: error: not valid TOML: Duplicate key `"id"` (at line 3, column 1)',
        ),
        (
            "[a]\nb.c = 1\n b . c = 2\n",
            "bad.toml: error: not valid TOML: Duplicate key `b . c` (at line 3, column 6)",
        ),
        (
            "[a]\n[a]\n",
            "bad.toml: error: not valid TOML: Duplicate key `[a]` (at line 2, column 2)",
        ),
        (
            '[[entries]]\nid = "a"\n"x`y" = 1\n"x`y" = 2\n',
            "bad.toml: error: not valid TOML: Duplicate key (at line 4, column 1)",
        ),
        (
            '[[entries]]\nid = "a"\ntitle = nope\n',
            "bad.toml: error: not valid TOML: Invalid value, expected a quoted string, a number, "
            "true or false (at line 3, column 9)",
        ),
        (
            '[[entries]]\nid = "a"\ntitle = Alpha\n',
            "bad.toml: error: not valid TOML: String values must be quoted, expected literal "
            "string (at line 3, column 9)",
        ),
        ("x = " + "[" * 1000 + "]" * 1000, "bad.toml: error: nested too deeply to read"),
    ],
)
def test_bad_toml_is_worded_with_its_line_and_column(
    tmp_path: Path, content: str, expected: str
) -> None:
    assert _errors(_toml(tmp_path / "bad.toml", content)) == [expected]


def test_a_bad_manifest_and_asked_as_file_say_why_and_where(tmp_path: Path) -> None:
    (tmp_path / "sources.toml").write_text("[[sources]\n", encoding="utf-8")
    (tmp_path / "asked-as").mkdir()
    (tmp_path / "asked-as" / "p.toml").write_text('[kv-cache]\nasked_as = ["a"\n')
    assert _errors(tmp_path) == [
        "sources.toml: error: cannot read the manifest: not valid TOML: Unclosed array table, "
        "expected `]` (at line 1, column 11)",
        "asked-as/p.toml: error: cannot read the file: not valid TOML: Unclosed array, "
        "expected `]` (at line 2, column 16)",
    ]


def test_changed_verbatim_file_fails_its_recorded_hash(tmp_path: Path) -> None:
    (tmp_path / "sources.toml").write_text(
        '[[sources]]\nkey = "demo"\nname = "Demo"\nfile = "demo.md"\nformat = "markdown"\n'
        'sha256 = "0000000000000000000000000000000000000000000000000000000000000000"\n',
        encoding="utf-8",
    )
    (tmp_path / "demo.md").write_text("Demo¶\n\nIntro.\n\nTerm¶\n\nA term.\n", encoding="utf-8")
    errors = _errors(tmp_path)
    assert errors[0].startswith("demo.md: error: content does not match the sha256 recorded")
    assert (
        errors[1]
        == "demo.md:5 [Term]: error: no category (give it one; for a verbatim file, in its curation overlay)"
    )


def test_topics_integrity_fields_must_agree(tmp_path: Path) -> None:
    path = tmp_path / "topics.json"
    path.write_text(
        json.dumps(
            {
                "schemaVersion": 1,
                "language": "en",
                "categories": [],
                "topics": [],
                "revision": "a" * 64,
                "sourceSha256": "b" * 64,
                "revisionAlgorithm": "sha256-utf8-lf-no-bom",
            }
        ),
        encoding="utf-8",
    )
    assert any("integrity fields disagree" in e for e in _errors(path))


def test_curation_for_a_missing_entry(tmp_path: Path) -> None:
    (tmp_path / "demo.md").write_text("Demo¶\n\nIntro.\n\nTerm¶\n\nA term.\n", encoding="utf-8")
    (tmp_path / "demo.curation.toml").write_text(
        '[entries."Term"]\ncategory = "Fundamentals"\n\n[entries."Ghost"]\ncategory = "Fundamentals"\n',
        encoding="utf-8",
    )
    errors = _errors(tmp_path)
    assert errors == [
        "demo.curation.toml:4 [Ghost]: error: curation names an entry that is not in the file it curates"
    ]


def test_missing_path(tmp_path: Path) -> None:
    assert _errors(tmp_path / "nope.toml") == ["nope.toml: error: no such file or folder"]


def test_a_file_too_large_to_load_quickly_is_refused_by_name(tmp_path: Path) -> None:
    from bot.glossary.sources import MAX_FILE_BYTES

    path = tmp_path / "huge.toml"
    entry = GOOD_ENTRY.format(id="alpha", title="Alpha")
    path.write_text(entry + "#" * MAX_FILE_BYTES + "\n", encoding="utf-8")
    errors = _errors(path)
    assert len(errors) == 1
    assert errors[0].startswith(
        "huge.toml: error: file is 4,194,411 bytes, more than the 4,194,304 bytes"
    )


ROOT = Path(__file__).resolve().parents[2]


def _readme_toml_example() -> str:
    readme = (ROOT / "README.md").read_text("utf-8")
    start = readme.index("```toml\n[[entries]]") + len("```toml\n")
    return readme[start : readme.index("```", start)]


def test_an_id_that_is_not_a_lowercase_slug_fails(tmp_path: Path) -> None:
    path = _toml(tmp_path / "terms.toml", GOOD_ENTRY.format(id="Bad Id", title="Alpha"))
    assert _errors(path) == [
        "terms.toml:3 [Bad Id]: error: id 'Bad Id' is not a lowercase slug (like 'kv-cache')"
    ]
    with pytest.raises(GlossaryError):  # so `define` and the bot never serve it
        load_glossary([path])


def test_every_problem_of_one_entry_is_reported_in_one_run(tmp_path: Path) -> None:
    entry = (
        '[[entries]]\nid = "alpha"\ntitle = "Alpha"\ncategory = "Fundemantals"\n'
        'definition = ""\ncolour = "red"\nreference = "ftp://x"\n'
    )
    errors = _errors(_toml(tmp_path / "terms.toml", entry))
    assert sorted(errors) == sorted(
        [
            "terms.toml:2 [alpha]: error: colour: unknown key",
            "terms.toml:2 [alpha]: error: empty definition",
            "terms.toml:2 [alpha]: error: unknown category 'Fundemantals' (one of: "
            "Fundamentals, Retrieval & Context, Agents & Interfaces, Training & Adaptation, "
            "Inference & Operations, Quality & Governance, Modality & Production)",
            "terms.toml:2 [alpha]: error: bad reference URL 'ftp://x': a card links only http or "
            "https addresses: start it with https://",
        ]
    )


def test_the_readme_toml_example_passes_check_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _toml(tmp_path / "my.toml", _readme_toml_example())
    assert main(["check", "my.toml"]) == 0, capsys.readouterr()
    assert "2 entries" in capsys.readouterr().out
    assert main(["check", str(ROOT / "data"), "my.toml"]) == 0, capsys.readouterr()
    assert path.is_file()


def test_a_bad_related_id_is_blamed_on_the_file_that_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The same id as a bundled entry: the bundled record leads the merged card, but the bad
    # related id is in my.toml, and my.toml is named.
    example = _readme_toml_example().replace('related = ["expert-router"]', 'related = ["nowhere"]')
    _toml(tmp_path / "my.toml", example)
    assert main(["check", "-q", str(ROOT / "data"), "my.toml"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == ["my.toml:2 [mixture-of-experts]: error: related id 'nowhere' names no entry"]


def test_no_entries_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "emptydir").mkdir()
    assert main(["check", "-q", "emptydir"]) == 1
    assert capsys.readouterr().out == (
        "emptydir: error: no glossary entries found: the folder holds no glossary file "
        "(a .json, .md, .txt or .toml file)\n"
    )
    with pytest.raises(GlossaryError, match="emptydir: error: no glossary entries found"):
        load_glossary([Path("emptydir")])


def test_files_are_named_by_the_path_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "sub").mkdir()
    bad = GOOD_ENTRY.format(id="alpha", title="Alpha").replace("Fundamentals", "Nope")
    _toml(tmp_path / "sub" / "terms.toml", bad)
    for given in ("sub", "sub/terms.toml", str(tmp_path / "sub")):
        assert main(["check", "-q", given]) == 1
        [line] = capsys.readouterr().out.splitlines()
        assert line.startswith(f"{Path(given, 'terms.toml') if given.endswith('sub') else given}:3")


def test_the_report_and_its_summary_are_one_stream(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Problems and the summary line both go to stdout, so `check > report.txt` keeps it all."""
    bad = GOOD_ENTRY.format(id="alpha", title="Alpha").replace("Fundamentals", "Nope")
    _toml(tmp_path / "terms.toml", bad + GOOD_ENTRY.format(id="beta", title="Beta"))
    assert main(["check", "terms.toml"]) == 1
    out, err = capsys.readouterr()
    assert err == ""  # off a terminal: no progress line either
    assert out.splitlines() == [
        "terms.toml:3 [alpha]: error: unknown category 'Nope' (one of: "
        + ", ".join(CATEGORIES)
        + ")",
        "2 entries (2 from terms); 1 error(s), 0 warning(s)",
    ]


def test_quiet_check_prints_nothing_on_clean_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _toml(tmp_path / "terms.toml", GOOD_ENTRY.format(id="alpha", title="Alpha"))
    assert main(["check", "-q", "terms.toml"]) == 0
    assert capsys.readouterr() == ("", "")


def test_entry_lines_are_counted_as_toml_counts_them(tmp_path: Path) -> None:
    """CRLF line ends, indented keys, a `\u2028` in a comment (no line end in TOML)."""
    first = GOOD_ENTRY.format(id="alpha", title="Alpha").replace("\n", "\r\n")
    second = GOOD_ENTRY.format(id="beta", title="Beta").replace("Fundamentals", "Nope")
    path = tmp_path / "terms.toml"
    comment = "# one line\u2028still the same line\r\n"
    path.write_bytes((first + comment + second.replace("\nid", "\n  id")).encode())
    assert _errors(path) == [
        "terms.toml:10 [beta]: error: unknown category 'Nope' (one of: "
        + ", ".join(CATEGORIES)
        + ")"
    ]


def _warnings(*paths: Path) -> list[str]:
    _, problems = inspect_glossary([Path(os.path.relpath(p)) for p in paths])
    return [str(p) for p in problems if p.severity == "warning"]


def test_a_match_term_that_is_another_entrys_name_is_named(tmp_path: Path) -> None:
    """Search ranks a name above a match term: "RAG" as my entry's match term, RAG being another
    entry's acronym, never finds mine (left55)."""
    rag = GOOD_ENTRY.format(id="rag", title="Retrieval-Augmented Generation") + 'acronym = "RAG"\n'
    kv = GOOD_ENTRY.format(id="kv-cache", title="KV Cache") + 'aliases = ["key-value cache"]\n'
    mine = (
        GOOD_ENTRY.format(id="zorb", title="Zorb")
        + 'match_terms = ["R.A.G.", "Key Value Cache", "zorbing", "Zorb"]\n'
    )
    _toml(tmp_path / "theirs.toml", rag, kv)
    path = _toml(tmp_path / "mine.toml", mine)
    assert _errors(tmp_path / "theirs.toml", path) == []
    assert _warnings(tmp_path / "theirs.toml", path) == [
        "mine.toml:3 [zorb]: warning: match term 'R.A.G.' is a name of 'rag' (theirs.toml), "
        "which search finds before a match term: text saying it finds that entry, never this "
        "one; drop the match term",
        "mine.toml:3 [zorb]: warning: match term 'Key Value Cache' is a name of 'kv-cache' "
        "(theirs.toml), which search finds before a match term: text saying it finds that "
        "entry, never this one; drop the match term",
    ]


def test_a_schema_error_hides_none_of_the_entry_s_other_problems(tmp_path: Path) -> None:
    """tidy75 item 4: `check` stopped at an entry's schema error: a missing definition hid its
    unknown category and bad reference, though README says it lists every problem. Each
    field's problem, one line each; the field pydantic refused is said once, by pydantic."""
    entry = (
        '[[entries]]\nid = "alpha"\ntitle = "Alpha"\ncategory = "Fundemantals"\n'
        'reference = "ftp://x"\naliases = "not a list"\n'
    )
    errors = _errors(_toml(tmp_path / "terms.toml", entry))
    assert sorted(errors) == sorted(
        [
            "terms.toml:2 [alpha]: error: definition: missing required field",
            "terms.toml:2 [alpha]: error: aliases: should be a list, written in brackets: "
            '["…", "…"]',
            "terms.toml:2 [alpha]: error: unknown category 'Fundemantals' (one of: "
            "Fundamentals, Retrieval & Context, Agents & Interfaces, Training & Adaptation, "
            "Inference & Operations, Quality & Governance, Modality & Production)",
            "terms.toml:2 [alpha]: error: bad reference URL 'ftp://x': a card links only http or "
            "https addresses: start it with https://",
        ]
    )


def _unknown_category(name: str) -> str:
    return f"unknown category {name!r} (one of: {', '.join(CATEGORIES)})"


def test_a_refused_topic_hides_none_of_its_other_problems(tmp_path: Path) -> None:
    """tidy76 item 3: tidy75 had `check` list every problem of a refused TOML entry and term
    import; a topics JSON topic refused for one field (keywords given as text) still hid its
    unknown category and bad reference. One line each now, the refused field said once."""
    topic = {
        "id": "t1",
        "number": 1,
        "title": "T",
        "category": "Nonsense",
        "summary": "s",
        "definition": "d",
        "importance": "i",
        "boundary": "b",
        "keywords": "not a list",
        "related": [],
        "reference": "ftp://x",
    }
    path = tmp_path / "topics.json"
    header = {"schemaVersion": 1, "language": "en", "categories": []}
    path.write_text(json.dumps({**header, "topics": [topic]}), encoding="utf-8")
    assert sorted(_errors(path)) == sorted(
        [
            'topics.json [t1]: error: keywords: should be a list, written in brackets: ["…", "…"]',
            f"topics.json [t1]: error: {_unknown_category('Nonsense')}",
            "topics.json [t1]: error: bad reference URL 'ftp://x': a card links only http or "
            "https addresses: start it with https://",
        ]
    )


def test_a_refused_curation_overlay_hides_none_of_its_other_problems(tmp_path: Path) -> None:
    """tidy76 item 3: a curation overlay's entry refused for one field (aliases given as text)
    hid its unknown category and, for an id the file lacks, that it curates nothing. Each said
    now, at the overlay's line; the file's entry is loaded uncurated, so its own problem (no
    category) is said too."""
    (tmp_path / "demo.md").write_text("Demo¶\n\nIntro.\n\nTerm¶\n\nA term.\n", encoding="utf-8")
    (tmp_path / "demo.curation.toml").write_text(
        '[entries."Term"]\ncategory = "Nonsense"\naliases = "x"\n\n'
        '[entries."Ghost"]\naliases = "y"\n',
        encoding="utf-8",
    )
    assert sorted(_errors(tmp_path)) == sorted(
        [
            "demo.curation.toml:1 [Term]: error: aliases: should be a list, written in brackets: "
            '["…", "…"]',
            f"demo.curation.toml:1 [Term]: error: {_unknown_category('Nonsense')}",
            "demo.curation.toml:5 [Ghost]: error: aliases: should be a list, written in brackets: "
            '["…", "…"]',
            "demo.curation.toml:5 [Ghost]: error: curation names an entry that is not in the "
            "file it curates",
            "demo.md:5 [Term]: error: no category (give it one; for a verbatim file, in its "
            "curation overlay)",
        ]
    )
