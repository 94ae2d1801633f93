"""Broken glossary files: `glossary-bot check` and the bot's start-up name the file and the
problem (truncated JSON, wrong types, duplicate ids, a 10 MB file), at once and never with a
traceback."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.cli import main
from bot.discord_app import runner
from bot.settings import Settings
from tests.resilience.botproc import glossary_bot

ROOT = Path(__file__).resolve().parents[2]
MB = 1024 * 1024

TOPIC = {
    "id": "t1",
    "number": 1,
    "title": "Topic One",
    "category": "Fundamentals",
    "summary": "A summary.",
    "definition": "A definition.",
    "importance": "Why it matters.",
    "boundary": "What it is not.",
    "keywords": [],
    "related": [],
}
ENTRY = '[[entries]]\nid = "{id}"\ntitle = "{title}"\ncategory = "Fundamentals"\ndefinition = "{definition}"\n\n'


def topics(*items: dict[str, object]) -> str:
    return json.dumps({"schemaVersion": 1, "language": "en", "categories": [], "topics": items})


def truncated_json(folder: Path) -> Path:
    path = folder / "topics.json"
    text = topics(TOPIC, {**TOPIC, "id": "t2", "number": 2, "title": "Topic Two"})
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    return path


def wrong_types(folder: Path) -> Path:
    path = folder / "terms.toml"
    path.write_text(
        ENTRY.format(id="alpha", title="Alpha", definition="A.").replace('"Alpha"', "5"),
        encoding="utf-8",
    )
    return path


def duplicate_ids(folder: Path) -> Path:
    path = folder / "terms.toml"
    path.write_text(
        ENTRY.format(id="alpha", title="Alpha", definition="A.")
        + ENTRY.format(id="alpha", title="Alpha Again", definition="Again."),
        encoding="utf-8",
    )
    return path


def ten_mb_of_entries(folder: Path) -> Path:
    path = folder / "many.toml"
    with path.open("w", encoding="utf-8") as out:
        n = 0
        while out.tell() < 10 * MB:
            out.write(ENTRY.format(id=f"e{n}", title=f"Entry {n}", definition=f"Entry {n}."))
            n += 1
    return path


def ten_mb_of_binary(folder: Path) -> Path:
    path = folder / "notes.md"
    path.write_bytes(b"\x00\xff" * (5 * MB))
    return path


TOO_BIG = "file is 10 MiB, more than the 4 MiB a glossary file may be"
CASES: dict[str, tuple[Callable[[Path], Path], str]] = {
    "truncated JSON": (truncated_json, "not valid JSON"),
    "wrong types": (wrong_types, "title: Input should be a valid string"),
    "duplicate ids": (duplicate_ids, "a second entry with id 'alpha'"),
    "10 MB of entries": (ten_mb_of_entries, TOO_BIG),
    "10 MB of binary": (ten_mb_of_binary, TOO_BIG),
}


@pytest.mark.parametrize("case", list(CASES))
def test_check_names_the_file_and_the_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    make, problem = CASES[case]
    path = make(tmp_path)
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    [line] = [line for line in out.splitlines() if problem in line]
    assert line.startswith(str(path))  # the file as it was given
    assert "Traceback" not in out


@pytest.mark.parametrize("case", list(CASES))
def test_start_up_names_the_file_and_the_problem(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    case: str,
) -> None:
    make, problem = CASES[case]
    path = make(tmp_path)
    monkeypatch.chdir(tmp_path)  # no developer's .env
    monkeypatch.setattr(runner, "configure_logging", lambda *args, **kwargs: None)
    settings = Settings(discord_token="not-used", glossary_paths=str(path))
    assert runner.run(settings) == runner.EXIT_ERROR  # before it ever contacts Discord
    err = capsys.readouterr().err
    assert err.startswith("glossary-bot: ")
    assert any(f"{path}:" in line and problem in line for line in err.splitlines())
    assert "Traceback" not in err


async def test_glossary_bot_run_refuses_a_broken_file(tmp_path: Path) -> None:
    path = truncated_json(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "GLOSSARY_"))}
    env.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN="not-used", GLOSSARY_PATHS=str(path))
    code, err = await glossary_bot(env, tmp_path, "run")  # nothing on stdout
    assert code == 1, err
    assert err.startswith(
        f"glossary-bot: 1 problem in the glossary data: {path}:1: error: not valid JSON"
    )
    assert len(err.splitlines()) == 1
    assert "Traceback" not in err
