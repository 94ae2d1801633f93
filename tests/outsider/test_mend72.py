"""mend72: review72's loose ends: the read-as check kept from one compile to the next;
`--help` to a full disk; (more below)."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.cli import main
from bot.discord_app.app import GlossaryBot
from bot.glossary import Glossary, load_glossary
from bot.glossary.server_terms import ServerTerm
from bot.mismatches import NameReadings, other_numbers
from bot.search.query import read_alone
from bot.storage import Store
from bot.storage.backend import Migrate
from bot.storage.cli import on_store
from bot.term_storage import TermChange, change_terms, read_terms
from tests.discord_app.term_commands import edit_answer, made_up, stored_now

from .conftest import Scene
from .test_left47 import moderator_answer
from .test_mend71 import _import, database  # noqa: F401  (the fixture)
from .test_product71 import WAYS_IN, _run, _way_in

FULL_DISK = (
    "glossary-bot: error: cannot write the output: No space left on device; what was "
    "written is cut short\n"
)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("arguments", [["--help"], ["-h"], ["check", "--help"]])
@pytest.mark.parametrize("way", list(WAYS_IN))
def test_help_to_a_full_disk_is_one_line_and_exit_1(
    tmp_path: Path, way: str, arguments: list[str]
) -> None:
    """`--help > file` on a full disk: the same one line and exit 1 as `--version` (review72);
    argparse's own printing dropped the OSError, and it exited 0 with nothing written."""
    with Path("/dev/full").open("w") as full:
        done = _run([*_way_in(way), *arguments], tmp_path, stdout=full, stderr=subprocess.PIPE)
    assert (done.returncode, done.stderr) == (1, FULL_DISK)


@pytest.mark.parametrize("arguments", [["--help"], ["check", "--help"]])
def test_help_still_prints_and_exits_0(tmp_path: Path, arguments: list[str]) -> None:
    """What holds: `--help` to a pipe prints the usage, exit 0. (With stdout closed, exit 0 and
    nothing said, until product73: test_product73.py, one line and exit 1.)"""
    done = _run([sys.executable, "-m", "bot", *arguments], tmp_path, capture_output=True)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("usage: glossary-bot")


# Names made to meet each other's readings: plurals, a search frame or filler around a word,
# a symbol after it, a bundled entry's name ("transformers", "the embeddings").
WORDS = ["zorb", "zorbs", "quux", "quuxes", "blip", "embedding", "transformer", "kv cache"]
AROUND = ["{}", "the {}", "{} ★", "what is {}", "{}s", "explain {}", "{} pls", "a {}"]


def _random_server(rng: random.Random, size: int) -> list[ServerTerm]:
    terms, seen = [], set()
    for n in range(size):
        names = []
        for _ in range(rng.randint(0, 4)):
            name = rng.choice(AROUND).format(rng.choice(WORDS) + rng.choice(["", "", "x", "y"]))
            if name.casefold() not in seen:
                seen.add(name.casefold())
                names.append(name)
        title = f"Term {rng.randint(0, 10**6)} {n}"
        terms.append(
            ServerTerm(
                id=f"t-{rng.randint(0, 99)}-{n}",
                title=title,
                definition="A made-up term.",
                category="Fundamentals",
                aliases=tuple(names),
            )
        )
    return terms


def _edited(rng: random.Random, terms: list[ServerTerm]) -> list[ServerTerm]:
    """Some terms dropped, some renamed (an alias swapped for another), some added."""
    kept = [t for t in terms if rng.random() > 0.1]
    for i in rng.sample(range(len(kept)), k=min(len(kept), 5)):
        twin = _random_server(rng, 1)[0]
        kept[i] = kept[i].model_copy(update={"aliases": twin.aliases})
    return kept + _random_server(rng, rng.randint(0, 5))


@pytest.fixture(scope="module")
def glossary() -> Glossary:
    return load_glossary()


@pytest.mark.parametrize("seed", range(12))
def test_readings_kept_from_the_last_check_find_what_reading_every_name_finds(
    glossary: Glossary, seed: int
) -> None:
    """The check with each name's reading kept from the server's previous check (review72:
    reading all 162,000 names of a server at its caps took 3x the rest) finds exactly what
    reading every name again finds, edit after edit, and keeps only the names now held."""
    rng = random.Random(seed)
    terms = _random_server(rng, 60)
    readings = NameReadings(read_alone)
    for _ in range(4):
        incremental = other_numbers(terms, glossary, readings)
        assert incremental  # the random names meet each other (and bundled names)
        assert incremental == other_numbers(terms, glossary, read_alone)
        assert set(readings.kept) == {name for t in terms for name in t.names}
        terms = _edited(rng, terms)


def test_a_kept_reading_is_used_and_a_changed_name_read_again(glossary: Glossary) -> None:
    """What makes it incremental: the second check reads only the name the edit added."""
    asked: list[str] = []

    def reading(name: str) -> str:
        asked.append(name)
        return read_alone(name)

    zorb = ServerTerm(id="zorb", title="Zorb", definition="A zorb.", category="Fundamentals")
    other = ServerTerm(id="zzz", title="Quux", definition="A quux.", category="Fundamentals")
    readings = NameReadings(reading)
    assert other_numbers([zorb, other], glossary, readings) == {}
    assert sorted(asked) == ["Quux", "Zorb"]
    asked.clear()
    renamed = other.model_copy(update={"aliases": ("the zorb",)})
    found = other_numbers([zorb, renamed], glossary, readings)
    assert asked == ["the zorb"]
    assert [t.id for t in found] == ["zzz"]


# Only a question's wording or filler: search leaves them out around the term asked (review72:
# a server alias "what is" made "what is it" / "what is that" offer its term).
FRAMING = ("what is", "Explain", "pls", "the", "what is that")


async def test_an_alias_of_only_a_question_s_words_is_refused(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """`/alias add` says why in one line and stores nothing (each was added before); words said
    to the bot stay names (README: a server's alias "thanks" opens its card)."""
    for alias in FRAMING:
        said = await moderator_answer(scene, "alias add", {"alias": alias, "term": "lora"})
        assert "is only the wording of a question (or filler)" in said, (alias, said)
    assert await store.aliases(scene.guild.id) == {}
    for alias in ("thanks", "ok", "the lora adapter"):
        added = await moderator_answer(scene, "alias add", {"alias": alias, "term": "lora"})
        assert added.startswith("Added"), (alias, added)


def test_an_alias_import_refuses_them_with_the_reason(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    database: str,  # noqa: F811  (the fixture)
) -> None:
    """`aliases import`: one line each naming the alias and why; the others are added."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GLOSSARY_PATHS", "")
    status, said = _import(
        tmp_path, capsys, database, *((a, "rag") for a in FRAMING), ("lol", "rag")
    )
    assert status == 1, said
    for alias in FRAMING:
        assert f"“{alias}” is only the wording of a question" in said, said
    stored = on_store(database, lambda store: store.aliases(5))
    assert stored == {"lol": "rag"}


def checked_db(
    db: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    terms: Sequence[ServerTerm],
    *aliases: str,
) -> tuple[int, list[str]]:
    """`check --db` once server 5 of `db` holds `terms` and `aliases` (each its own
    wording, of RAG) as an older bot may have stored them: its exit status and lines."""

    async def put(store: Store) -> None:
        await change_terms(store, 5, lambda *_: (TermChange(put=tuple(terms)), None), 4242)
        for alias in aliases:
            await store.add_alias(5, alias, alias, "rag", actor_id=1)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GLOSSARY_PATHS", "")
    on_store(db, put, migrate=Migrate.UPGRADE)
    capsys.readouterr()
    status = main(["check", "--db", db])
    said = capsys.readouterr()
    return status, (said.out + said.err).splitlines()


def test_check_db_lists_bad_references_and_framing_aliases_stored_before(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    database: str,  # noqa: F811  (the fixture)
) -> None:
    """Stored before they were refused (review72): a term's reference no browser opens and an
    alias of only a question's words, one line each naming the server and the term or alias;
    a good reference and alias are not named."""
    bad = {
        "port-abc": "https://example.org:abc/page",
        "no-host": "https://:443/page",
        "tab": "https://example.org/a\tb",
    }
    terms = [
        ServerTerm(
            id=term_id,
            title=f"Zorb {term_id}",
            definition="A made-up zorb.",
            category="Fundamentals",
            reference=url,
        )
        for term_id, url in {**bad, "fine": "https://[::1]:8443/page"}.items()
    ]

    status, lines = checked_db(database, tmp_path, monkeypatch, capsys, terms, "what is", "zorbish")
    for term_id, url in bad.items():
        named = [line for line in lines if f"(id {term_id!r}): bad reference URL" in line]
        assert len(named) == 1, lines
        assert "server 5" in named[0], named
        assert repr(url) in named[0], named
    framing = [line for line in lines if "alias “what is” is only the wording" in line]
    assert len(framing) == 1, lines
    assert "server 5" in framing[0], framing
    assert not [line for line in lines if "'fine'" in line or "zorbish" in line], lines
    assert status == 0, lines


async def test_an_edit_of_a_term_with_a_stored_bad_reference_saves_and_says_so(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """A reference URL stored before `check` refused it (review72: a port not a number): the
    form does not hold it, so the edit is saved with it as it was, and the moderator is told;
    a term with a good reference, no note. Before, an edit dropped what only a file gives
    (reference, importance, plain words, keywords), good or bad, without a word."""
    bad = made_up("zorb", reference="https://example.org:abc/page")
    good = bad.model_copy(
        update={
            "id": "quux",
            "title": "Quux",
            "reference": "https://example.org/q",
            "importance": "It matters.",
            "plain": "A quux.",
            "keywords": ("quuxing",),
        }
    )
    await stored_now(scene, bot, store, bad, good)
    for term in (bad, good):
        said = await edit_answer(scene, term.id, {"definition": f"{term.title}, edited."})
        assert said.startswith(f"Saved **{term.title}**"), said
        told = (
            "bad reference URL 'https://example.org:abc/page': its port is not a number from 0 "
            "to 65535; kept as it was stored"
        )
        assert (told in said) is (term is bad), said
    stored = {t.id: t for t in await read_terms(store, scene.guild.id)}
    assert stored["zorb"].definition == "Zorb, edited."
    assert stored["zorb"].reference == bad.reference
    assert stored["quux"] == good.model_copy(update={"definition": "Quux, edited."})
