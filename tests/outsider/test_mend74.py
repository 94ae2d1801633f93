"""mend74: loose ends noticed by review74 and product74 (tests/outsider/PLAN.md, its "mend74"
section): the command line in processes, search and the cards as the bot uses them."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from bot.cachedir import CACHE_ENV, default_cache_dir
from bot.discord_app.app import GlossaryBot
from bot.glossary.letters import fit_around
from bot.storage import Store
from bot.storage.backend import Migrate
from bot.storage.cli import on_store
from bot.term_storage import read_terms
from tests.conftest import _own_cache_dir
from tests.discord_app.helpers import embed_of
from tests.discord_app.term_commands import made_up, stored_now

from .conftest import Scene
from .test_left47 import moderator_answer
from .test_outsider69 import import_file
from .test_product70 import _imported
from .test_product71 import EXIT_WITHIN, _environment
from .test_review71 import ONE_ENTRY

# -- 1. A command whose output is its point, started with standard output closed --

PRINTS = {
    "search": ["search", "rag"],
    "define": ["define", "rag"],
    "export": ["export"],
    "aliases export": ["aliases", "export"],
    "terms export": ["terms", "export", "--guild", "1"],
    "terms log": ["terms", "log", "--guild", "1"],
    "stats": ["stats"],
}


def _closed_stdout(home: Path, arguments: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", "-c", 'exec "$@" >&-', "sh", sys.executable, "-m", "bot", *arguments],
        env=_environment(home, GLOSSARY_PATHS=""),
        cwd=home,
        stderr=subprocess.PIPE,
        text=True,
        timeout=EXIT_WITHIN,
        check=False,
    )


@pytest.mark.parametrize("arguments", PRINTS.values(), ids=PRINTS.keys())
def test_a_command_whose_output_is_its_point_fails_on_a_closed_standard_output(
    tmp_path: Path, arguments: list[str]
) -> None:
    """`search rag >&-` (also define, the exports, stats, terms log) exited 0 having written
    nothing, where `--help >&-` says so and exits 1: now the same one line, exit 1, before any
    work. Failed before: exit 0, nothing said. (`check >&-` stays 0: test_review72.)"""
    done = _closed_stdout(tmp_path, arguments)
    assert (done.returncode, done.stderr) == (
        1,
        "glossary-bot: error: cannot write the output: standard output is closed\n",
    )


def test_an_export_to_a_file_needs_no_standard_output(tmp_path: Path) -> None:
    """`-o FILE` writes no stdout: a closed one is no error for it."""
    on_store(tmp_path / "glossary-bot.db", lambda store: store.aliases(1), migrate=Migrate.UPGRADE)
    done = _closed_stdout(tmp_path, ["terms", "export", "--guild", "1", "-o", "terms.toml"])
    assert done.returncode == 0, done.stderr
    assert "standard output" not in done.stderr, done.stderr
    assert (tmp_path / "terms.toml").exists()


def test_a_pipe_closed_by_its_reader_stays_quiet(tmp_path: Path) -> None:
    """`search rag ... | head -c 1`: the reader took what it wanted; exit 0, nothing on stderr
    (a guard: held before too)."""
    with subprocess.Popen(
        [sys.executable, "-m", "bot", "search", *["rag", "kv cache", "lora"] * 2000],
        env=_environment(tmp_path, GLOSSARY_PATHS=""),
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as program:
        assert program.stdout is not None
        assert program.stderr is not None
        assert program.stdout.read(1)
        program.stdout.close()
        status = program.wait(timeout=EXIT_WITHIN)
        said = program.stderr.read().decode()
    assert (status, said) == (0, "")


# -- 2. The framing refusal quotes a name as search reads it, markup and all --


async def test_a_question_s_wording_under_markup_is_quoted_as_search_reads_it(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """`/alias add "# WHAT"` and a term imported titled "# WHAT IS" are refused (review74), but
    the refusal said “# what” (normalize keeps "#" for C#) where search reads “what”, as
    `/suggest` says since product74. Failed before: both quoted the "#"."""
    said = await moderator_answer(scene, "alias add", {"alias": "# WHAT", "term": "lora"})
    assert "in any case (“# WHAT” reads as “what”)" in said, said
    assert await store.aliases(scene.guild.id) == {}
    text = (
        '[[entries]]\ntitle = "# WHAT IS"\ncategory = "Fundamentals"\n'
        'definition = "A made-up thing for a test."\n'
    )
    said = await import_file(scene, "ours.toml", text)
    assert "in any case (“# WHAT IS” reads as “what is”)" in said, said
    assert await read_terms(store, scene.guild.id) == []


# -- 3. The footer quotes the part of a long question that matched --


async def test_a_footer_quotes_the_part_of_a_long_question_that_matched(
    scene: Scene, bot: GlossaryBot
) -> None:
    """The footer quoted the first 100 characters of the question's core, so "what is " + 95
    letters + " kv cahce" said `matched "aaaa… […]" as a typo`: the part that matched cut away
    (review74). Now it is cut around the run most like the card's name. Failed before."""
    fake = scene.fake  # a mention: /define takes 100 characters
    said = "what is " + "a" * 95 + " kv cahce"
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} {said}")
    card = embed_of(await fake.wait_for_channel_message(scene.channel))
    assert card["title"] == "KV Cache", card
    assert ' · matched "[…] kv cahce" as a typo' in card["footer"]["text"], card["footer"]


WORDS = " ".join(f"w{i:02}" for i in range(60))  # 239 characters, each word its own


@pytest.mark.parametrize(("start", "kept"), [(0, "w00"), (120, "w30"), (236, "w59")])
def test_a_long_text_is_cut_around_the_part_kept(start: int, kept: str) -> None:
    """`fit_around`: the part kept whole wherever it is, whole words around it, marked where
    cut, never past the limit."""
    cut = fit_around(WORDS, start, start + 3, 100)
    assert len(cut) <= 100, cut
    assert f" {kept} " in f" {cut} ", cut
    assert cut.startswith("[…] ") == (start > 0), cut
    assert cut.endswith(" […]") == (start < 236), cut
    inner = cut.removeprefix("[…] ").removesuffix(" […]")
    assert f" {inner} " in f" {WORDS} ", cut  # whole words, as they were
    assert len(inner) > 80, cut  # the room used, not only the part


# -- 4. A reference URL with userinfo: its shown start is not its host --

USERINFO = "https://docs.example.org:s3cret@evil.example/kv-cache"


def test_a_reference_url_with_userinfo_is_a_problem_said_without_its_password(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`https://docs.example.org:s3cret@evil.example/` was taken and shown as the card's link:
    a browser goes to evil.example. `terms import` (as `check`) says so in one line, without
    the password. Failed before (imported, exit 0)."""
    monkeypatch.chdir(tmp_path)
    code, said = _imported(tmp_path, capsys, "ours.toml", ONE_ENTRY + f'reference = "{USERINFO}"\n')
    assert code == 1, said
    assert (
        "Reference: reference URL has a user name and a password (“name:password@”) before its host"
        in said
    ), said
    assert "s3cret" not in said, said


async def test_a_stored_reference_with_userinfo_leaves_the_card_without_its_link(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """One stored before (a file imported before this check) goes out without the link, as a
    reference past Discord's length does (review74). Failed before: the card linked to it."""
    await stored_now(scene, bot, store, made_up("zorb", reference=USERINFO))
    asked = await scene.fake.slash(scene.alice, "define", {"term": "zorb"}, channel=scene.channel)
    [card] = (await asked.final_message())["embeds"]
    assert card["title"] == "Zorb", card
    assert card.get("url") is None, card


# -- 5. A test run's own cache folder --


@pytest.mark.parametrize("set_by_developer", [False, True], ids=["default", "set"])
def test_a_test_run_writes_its_vectors_in_a_cache_folder_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, set_by_developer: bool
) -> None:
    """Concurrent runs shared ~/.cache/glossary-bot (term vectors one run embedded became the
    others'): the run now has its own folder (tests/conftest.py), removed at its end without
    writing back (mend75: PLAN.md says why). Failed before: the default was
    ~/.cache/glossary-bot. mend75: the set-up itself, in an environment of the test's own.
    left75: a GLOSSARY_CACHE_DIR the developer set is no exception (it was used as it was: the
    tests' vectors went into the developer's real cache; the "set" case failed before), and
    the folder starts empty, nothing copied from the developer's (the bundled glossary's
    vectors come from the shipped seed; the "default" case failed before: a copy)."""
    shared = tmp_path / "xdg" / "glossary-bot"
    shared.mkdir(parents=True)
    (shared / "entry-vectors.npz").write_bytes(b"the developer's vectors")
    (shared / "notes.txt").write_text("no cache file")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if set_by_developer:
        monkeypatch.setenv(CACHE_ENV, str(shared))
    else:
        monkeypatch.delenv(CACHE_ENV, raising=False)
    cleanups: list[Callable[[], object]] = []
    _own_cache_dir(cast(pytest.Config, SimpleNamespace(add_cleanup=cleanups.append)))
    own = default_cache_dir()
    assert own != shared, own
    assert list(own.iterdir()) == [], own
    (own / "term-vectors.npz").write_bytes(b"a test's made-up terms")
    for cleanup in cleanups:
        cleanup()
    assert not own.exists(), own
    assert sorted(p.name for p in shared.iterdir()) == ["entry-vectors.npz", "notes.txt"]
    assert (shared / "entry-vectors.npz").read_bytes() == b"the developer's vectors"
