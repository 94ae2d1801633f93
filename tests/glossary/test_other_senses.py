"""Other senses (task senses77): `other-senses/*.toml` beside a glossary, loaded onto entries
and checked like the asked-as tables, with clear messages; a server term's, through every file
format the bot reads and the one it writes (a round trip), checked by the same rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.glossary import inspect_glossary, load_glossary
from bot.glossary.interchange import export_toml, parse_import
from bot.glossary.models import Glossary
from bot.glossary.other_senses import MAX_SENSE_CHARS, MAX_SENSES
from bot.glossary.server_terms import ServerTerm, TermDraft, check_draft, server_glossary

ENTRY = """
[[entries]]
id = "{id}"
title = "{title}"
category = "Fundamentals"
definition = "A definition of {title}."
"""
POLE = "an electrical transformer on a utility pole"


def _folder(tmp_path: Path, senses: str) -> Path:
    (tmp_path / "terms.toml").write_text(
        ENTRY.format(id="transformers", title="Transformers") + ENTRY.format(id="rag", title="RAG"),
        encoding="utf-8",
    )
    (tmp_path / "other-senses").mkdir()
    (tmp_path / "other-senses" / "senses.toml").write_text(senses, encoding="utf-8")
    return tmp_path


def _errors(folder: Path) -> list[str]:
    _, problems = inspect_glossary([folder])
    return [str(p) for p in problems if p.severity == "error"]


def test_senses_land_on_their_entries(tmp_path: Path) -> None:
    folder = _folder(tmp_path, f'[transformers]\nsenses = ["{POLE}", "{POLE}", "the robot toys"]\n')
    glossary = load_glossary([folder])
    assert glossary["transformers"].other_senses == (POLE, "the robot toys")  # a repeat once
    assert glossary["rag"].other_senses == ()


def test_the_bundled_senses_moved_whole() -> None:
    """offfield76's 38 entries, as bot/search/other_senses.toml had them (spot checks; the
    move's what-if, bench/senses77_move_same.py, compares their rows whole)."""
    senses = {e.id: e.other_senses for e in load_glossary() if e.other_senses}
    assert len(senses) == 38
    assert senses["transformers"][0].startswith("an electrical transformer on a utility pole")
    assert len(senses["temperature"]) == 3


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ('[transformrs]\nsenses = ["a toy robot"]\n', "names no entry: 'transformrs'"),
        ('[rag]\nsenses = "a rag for cleaning"\n', "expected senses = [non-empty strings] only"),
        ("[rag]\nsenses = []\n", "expected senses = [non-empty strings] only"),
        ('[rag]\nsenses = ["a rag"]\nother = 1\n', "expected senses = [non-empty strings] only"),
        ('[rag]\nsenses = ["cloth"]\n', "an other sense of one word ('cloth')"),
        (
            f'[rag]\nsenses = ["{"a cloth " * 30}"]\n',
            f"an other sense longer than {MAX_SENSE_CHARS} characters",
        ),
        (
            "[rag]\nsenses = [" + ", ".join(f'"a cloth {n}"' for n in range(6)) + "]\n",
            f"at most {MAX_SENSES} other senses (6)",
        ),
    ],
)
def test_a_wrong_table_is_an_error_naming_file_entry_and_why(
    tmp_path: Path, written: str, said: str
) -> None:
    errors = _errors(_folder(tmp_path, written))
    assert len(errors) == 1, errors
    assert "other-senses/senses.toml" in errors[0]
    assert said in errors[0]


def test_a_data_file_s_entry_giving_senses_is_told_their_home(tmp_path: Path) -> None:
    """The topics JSON reads `otherSenses` for a server's file of terms; a glossary folder's
    entries have theirs in other-senses/*.toml, one home."""
    topics = {
        "schemaVersion": 1,
        "language": "en",
        "categories": ["Fundamentals"],
        "topics": [
            {
                "id": "rag",
                "number": 1,
                "title": "RAG",
                "category": "Fundamentals",
                "summary": "Retrieval first.",
                "definition": "Retrieval-augmented generation: documents fetched first.",
                "importance": "Grounds answers.",
                "boundary": "Not fine-tuning.",
                "keywords": [],
                "related": [],
                "otherSenses": ["a rag for cleaning the kitchen"],
            }
        ],
    }
    (tmp_path / "topics.json").write_text(json.dumps(topics), encoding="utf-8")
    (tmp_path / "sources.toml").write_text(
        '[[sources]]\nkey = "t"\nname = "Topics"\nfile = "topics.json"\nformat = "topics-json"\n',
        encoding="utf-8",
    )
    errors = _errors(tmp_path)
    assert any("other-senses/*.toml" in e for e in errors), errors


@pytest.fixture(scope="module")
def bundled() -> Glossary:
    return load_glossary()


RAID_TOML = b"""[[entries]]
title = "Raid"
category = "Agents & Interfaces"
definition = "Our weekly group event where twenty players fight the hardest bosses together."
other_senses = ["a police raid on a house or a business", "RAID disks, mirrored drives"]
"""


def test_a_term_s_senses_round_trip_through_the_export(bundled: Glossary) -> None:
    terms, problems = parse_import(RAID_TOML, "terms.toml", bundled)
    assert problems == []
    [raid] = terms
    assert raid.other_senses == (
        "a police raid on a house or a business",
        "RAID disks, mirrored drives",
    )
    exported = export_toml(terms)
    assert (
        'other_senses = ["a police raid on a house or a business", "RAID disks, mirrored drives"]'
        in exported
    )
    again, problems = parse_import(exported.encode(), "terms.toml", bundled, replaced=terms)
    assert (again, problems) == (terms, [])


def test_the_topics_json_of_terms_carries_them(bundled: Glossary) -> None:
    topic = {
        "id": "raid",
        "number": 1,
        "title": "Raid",
        "category": "Agents & Interfaces",
        "summary": "Our weekly event.",
        "definition": "Our weekly group event where twenty players fight the hardest bosses.",
        "importance": "Everyone comes.",
        "boundary": "Not a dungeon run.",
        "keywords": [],
        "related": [],
        "otherSenses": ["a police raid on a house or a business"],
    }
    data = {"schemaVersion": 1, "language": "en", "categories": [], "topics": [topic]}
    terms, problems = parse_import(json.dumps(data).encode(), "terms.json", bundled)
    assert [p for p in problems if p.severity == "error"] == []
    assert terms[0].other_senses == ("a police raid on a house or a business",)


def test_a_file_s_sense_of_one_word_is_refused_at_its_line(bundled: Glossary) -> None:
    written = RAID_TOML.replace(b'"RAID disks, mirrored drives"', b'"disks"')
    terms, problems = parse_import(written, "terms.toml", bundled)
    assert terms == []
    [problem] = problems
    assert str(problem).startswith("line 1, “Raid”, Other senses: an other sense of one word")


def test_the_option_s_senses_are_semicolon_separated_and_kept_by_an_edit(
    bundled: Glossary,
) -> None:
    draft = TermDraft(
        "Raid",
        "Our weekly group event where twenty players fight the hardest bosses together.",
        category="Agents & Interfaces",
        other_senses="a police raid, on a house; RAID disks in an array",
    )
    checked = check_draft(draft, bundled, [])
    assert checked.term is not None, checked.problems
    assert checked.term.other_senses == ("a police raid, on a house", "RAID disks in an array")
    again = TermDraft.of(checked.term, bundled)  # `/term edit` opened without the option
    assert check_draft(again, bundled, [checked.term], editing="raid").term == checked.term


def test_a_server_s_wording_of_an_entry_keeps_the_entry_s_senses_and_adds_its_own(
    bundled: Glossary,
) -> None:
    own = ServerTerm(
        id="transformers",
        title="Transformers",
        category="Fundamentals",
        definition="The model family our bot runs on: attention layers stacked deep.",
        other_senses=("the transformers robots in our game's event",),
    )
    card = server_glossary(bundled, [own])["transformers"]
    assert card.other_senses[0] == "the transformers robots in our game's event"
    assert set(bundled["transformers"].other_senses) < set(card.other_senses)
