"""loose77: what outsider77 noticed and left (tests/outsider/PLAN.md, `## loose77`), driven as
an operator runs `glossary-bot`: a process of its own, its own home and settings."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .test_product71 import EXIT_WITHIN, _environment


def _glossary_bot(
    home: Path, *arguments: str, piped: bytes | None = None, **settings: str
) -> subprocess.CompletedProcess[bytes]:
    """`glossary-bot ARGUMENTS` from a shell in `home` with only `settings` set."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *arguments],
        env=_environment(home, **settings),
        cwd=home,
        input=piped if piped is not None else b"",
        capture_output=True,
        timeout=EXIT_WITHIN,
        check=False,
    )


@pytest.mark.parametrize("way", ["on disk", "piped"])
def test_an_alias_file_past_the_bound_is_refused_in_one_line(tmp_path: Path, way: str) -> None:
    """`aliases import` read the whole file (or standard input) whatever its size, where `terms
    import` refuses one past its bound before reading it: a wrong file (a log, a dump) was read
    into memory whole. Now the same bound's line, on disk by its size, piped one byte past it."""
    big = tmp_path / "aliases.json"
    with big.open("wb") as file:  # sparse: its size is all the check reads
        file.truncate(40 << 20)
    if way == "on disk":
        done = _glossary_bot(tmp_path, "aliases", "import", "aliases.json", "--db", "a.db")
        said = "glossary-bot: error: aliases.json is 40 MiB; an import is at most 31.25 MiB"
    else:
        piped = b"[" + b" " * (33 << 20) + b"]"
        done = _glossary_bot(tmp_path, "aliases", "import", "-", "--db", "a.db", piped=piped)
        said = "glossary-bot: error: standard input is too big: an import is at most 31.25 MiB"
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert err.startswith(said), err
    assert "--guild ID" in err, err
    assert err.count("\n") == 1, err
    assert not (tmp_path / "a.db").exists()


@pytest.mark.parametrize(
    ("setting", "value", "source"),
    [
        ("DATABASE_URL", "mysql://user:hunter2@db/glossary", " (from .env)"),
        ("DATABASE_URL", "mysql://user:hunter2@db/glossary", " (from the environment)"),
        ("DISCORD_TOKEN", "Bot abc.def", " (from .env)"),
        ("DISCORD_TOKEN", "Bot abc.def", " (from the environment)"),
        ("COOLDOWN_USES", "five", " (from .env)"),
        ("COOLDOWN_USES", "five", "=five"),
    ],
    ids=[
        "url env file",
        "url environment",
        "token env file",
        "token environment",
        "number env file",
        "number environment",
    ],
)
def test_every_bad_setting_says_where_it_came_from(
    tmp_path: Path, setting: str, value: str, source: str
) -> None:
    """A bad DATABASE_URL (or token) said "DATABASE_URL is not valid", naming no source, where
    every other setting said "(from .env)" or its value from the environment: an operator with
    both a shell variable and a .env line could not tell which to mend. One way for every
    setting now: the environment's value, a secret's as "(from the environment)", never shown;
    else "(from .env)"."""
    settings: dict[str, str] = {}
    if source == " (from .env)":
        (tmp_path / ".env").write_text(f"{setting}={value}\n", "utf-8")
    else:
        settings[setting] = value
    done = _glossary_bot(tmp_path, "stats", "--db", "a.db", **settings)
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert err.startswith(f"glossary-bot: bad setting: {setting}{source} is not valid"), err
    assert "hunter2" not in err
    assert "abc.def" not in err


@pytest.mark.parametrize(
    ("setting", "value", "said"),
    [
        ("MAX_SERVER_TERMS", "2,000", "(write 2000, without commas: a number setting takes"),
        ("MAX_SERVER_TERM_BYTES", "2,097,152", "(write 2097152, without commas"),
        ("COOLDOWN_SECONDS", "2,5", "(without commas, a decimal point a dot: "),
    ],
    ids=["terms", "bytes", "decimal comma"],
)
def test_a_number_setting_written_with_a_comma_says_how_to_write_it(
    tmp_path: Path, setting: str, value: str, said: str
) -> None:
    """`MAX_SERVER_TERMS=2,000`, the number as the README's prose writes it, got the generic
    "expected a whole number of at least 1". No number setting takes a comma ("2,5" is 2.5 in
    some places, 25 in others; the README's settings table writes none): the refusal now says
    how to write it, and why."""
    (tmp_path / ".env").write_text(f"{setting}={value}\n", "utf-8")
    done = _glossary_bot(tmp_path, "stats", "--db", "a.db")
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert err.startswith(f"glossary-bot: bad setting: {setting} (from .env) is not valid"), err
    assert said in err, err
    assert "“2,5” reads 2.5 in some places, 25 in others" in err, err


def test_stats_lists_the_servers_the_database_holds(tmp_path: Path) -> None:
    """`stats` never showed a server's id: an operator found one only through an error (`terms
    export` of a server with none names those with some). `stats --servers` lists each server
    the database holds, by id (no names are stored, and it says so), with what it holds."""
    guild = "987654321098765432"
    (tmp_path / "terms.toml").write_text(
        '[[entries]]\nid = "zorb"\ntitle = "Zorb"\ncategory = "Fundamentals"\n'
        'definition = "The zorb runs our nightly jobs."\n',
        "utf-8",
    )
    imported = _glossary_bot(
        tmp_path, "terms", "import", "terms.toml", "--guild", guild, "--db", "a.db"
    )
    assert imported.returncode == 0, imported.stderr
    aliases = b'[{"guild_id": 5, "alias": "ragg thing", "entry_id": "rag"}]'
    added = _glossary_bot(tmp_path, "aliases", "import", "-", "--db", "a.db", piped=aliases)
    assert added.returncode == 0, added.stderr
    done = _glossary_bot(tmp_path, "stats", "--servers", "--db", "a.db")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert lines[0].startswith("Servers in a.db: 2 (by id: the bot stores no server names"), lines
    assert lines[1].split() == [
        "5",
        "0",
        "lookups,",
        "1",
        "alias,",
        "0",
        "terms,",
        "0",
        "suggestions",
        "waiting",
    ]
    assert lines[2].split()[:7] == [guild, "0", "lookups,", "0", "aliases,", "1", "term,"], lines
    as_json = _glossary_bot(tmp_path, "stats", "--servers", "--json", "--db", "a.db")
    import json

    assert [s["guild_id"] for s in json.loads(as_json.stdout)] == [5, int(guild)]
    both = _glossary_bot(tmp_path, "stats", "--servers", "--guild", "5", "--db", "a.db")
    assert both.returncode == 2, both.stderr


def test_every_import_problem_names_its_entry_by_its_title(tmp_path: Path) -> None:
    """`terms import` named an entry by its title in the lines of the term checks ("“Zorb
    Engine”, Related terms: …") and by its id in the lines of the file's reader ("“blip”,
    Definition: missing required field"), for entries of one file. One rule now: an import's
    lines name an entry by its title (what the moderator knows it by, on its card and in `/term
    edit`), by its id only where it has none. (`check`'s lines keep the id, the data's key.)"""
    (tmp_path / "terms.toml").write_text(
        '[[entries]]\nid = "zorb-engine"\ntitle = "Zorb Engine"\ncategory = "Fundamentals"\n'
        'definition = "The zorb engine runs our nightly jobs."\nrelated = ["nosuch"]\n\n'
        '[[entries]]\nid = "blip"\ntitle = "Blip"\ncategory = "Fundamentals"\n\n'
        '[[entries]]\nid = "untitled"\ncategory = "Fundamentals"\ndefinition = "No title."\n',
        "utf-8",
    )
    done = _glossary_bot(tmp_path, "terms", "import", "terms.toml", "--guild", "1", "--db", "a.db")
    assert done.returncode == 1, done.stderr
    lines = done.stderr.decode().splitlines()
    assert "• line 2, “Zorb Engine”, Related terms: no term of this server" in "\n".join(lines)
    assert "• line 9, “Blip”, Definition: missing required field" in lines, lines
    assert "• line 14, “untitled”, Title: missing required field" in lines, lines


def test_a_duplicate_id_s_problems_tell_the_copies_apart(tmp_path: Path) -> None:
    """A topics JSON written on one line (as the bundled one is), a topic in it twice under one
    id, missing fields: each missing field was listed twice under the same label and no line,
    "“zorb-engine”, Definition: missing required field" twice, as if said twice of one entry.
    The copy is told apart now, in `terms import` and `check` alike."""
    import json

    topic = {"id": "zorb-engine", "number": 1, "title": "Zorb Engine", "category": "Fundamentals"}
    topics = {
        "schemaVersion": 1,
        "language": "en",
        "categories": ["Fundamentals"],
        "topics": [topic, {**topic, "number": 2}],
    }
    (tmp_path / "topics.json").write_text(json.dumps(topics), "utf-8")
    done = _glossary_bot(tmp_path, "terms", "import", "topics.json", "--guild", "1", "--db", "a.db")
    assert done.returncode == 1, done.stderr
    lines = done.stderr.decode().splitlines()
    said = [line for line in lines if "Definition: missing required field" in line]
    assert said == [
        "• “Zorb Engine”, Definition: missing required field",
        "• “Zorb Engine (the second entry with id zorb-engine)”, Definition: missing required field",
    ], lines
    checked = _glossary_bot(tmp_path, "check", "topics.json").stdout.decode().splitlines()
    assert [line for line in checked if "definition: missing" in line] == [
        "topics.json [zorb-engine]: error: definition: missing required field",
        "topics.json [zorb-engine (the second entry with this id)]: error: definition: missing "
        "required field",
    ], checked
