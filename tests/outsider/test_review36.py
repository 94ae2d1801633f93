"""Review of last session's changes (tests/outsider/PLAN.md, review36): direct messages' turns,
links in what members write, a read-only snapshot's copy.

The search index on the bundled glossary, the members' worker as the bot runs it, and
`glossary-bot` on real SQLite files."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import marshal
import random
import re
import subprocess
import sys
import threading
import weakref
from pathlib import Path

import pytest

from bot.cards import quote as quote_module
from bot.cards.quote import defanged_rest, quote
from bot.cli import main
from bot.discord_app.alias_cache import STALE_IDLE_AFTER
from bot.discord_app.member_searches import (
    DM_MOST_WAITING,
    DMS_TIMES_A_SERVER,
    MOST_WAITING,
    MemberSearches,
    Turn,
    turn_of,
)
from bot.glossary import links, load_glossary
from bot.glossary.links import only_links, without_links
from bot.search.index import SearchIndex
from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import define, embed_of
from tests.discord_app.test_member_searches import STUCK, queued_searches
from tests.resilience.conftest import without_permission_override

from .conftest import Scene
from .test_left24 import _cli
from .test_review35 import _note_set_aside
from .test_round20 import _database


async def test_thousands_of_members_dms_leave_nothing_behind_once_quiet() -> None:
    """V1: 2,000 members each send the bot one DM while the worker is held (all DMs' cap is
    DMS_TIMES_A_SERVER x a server's: the rest refused), a member also has one in a server:
    once all are done the worker keeps no turn, count or log mark of any of them."""
    searches = MemberSearches()
    release = threading.Event()
    turns: list[Turn] = [turn_of(None, member) for member in range(1, 2001)]
    turns.append(turn_of(7, 1))  # member 1 in a server too: a turn of its own
    try:
        tasks = await queued_searches(searches, turns, release)
    finally:
        release.set()
    done = await asyncio.gather(*tasks)
    assert done.count(True) == MOST_WAITING * DMS_TIMES_A_SERVER + 1, done.count(True)
    assert done[-1] is True  # the server's search was not refused for the DMs
    assert searches.idle()
    assert (searches._turns, searches._waiting, searches._full, searches._left) == (
        {},
        {},
        set(),
        set(),
    )
    assert searches._in_dms == 0


async def test_a_raid_of_accounts_at_their_dm_cap_is_one_log_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """V2: 60 accounts each send DM_MOST_WAITING + 1 DMs while the worker is held: each
    account's last is refused (its own cap), and the log said so once per account, 60
    WARNING lines alike ("direct messages: 5 … waiting") for one raid. Now one line until the
    DMs drain, as a server's cap is said once, and how many members were at their cap then."""
    searches = MemberSearches()
    release = threading.Event()
    turns = [turn_of(None, member) for member in range(1, 61) for _ in range(DM_MOST_WAITING + 1)]
    caplog.set_level(logging.WARNING, logger="bot.discord_app.member_searches")
    try:
        tasks = await queued_searches(searches, turns, release)
    finally:
        release.set()
    done = await asyncio.gather(*tasks)
    assert done.count(None) == 60, done.count(None)  # each account's last, refused
    lines = [r.getMessage() for r in caplog.records if "direct messages" in r.getMessage()]
    assert len(lines) == 2, lines  # the first member's line, and left36's count once drained
    assert "one member" in lines[0], lines
    assert "60 members were at their cap" in lines[1], lines
    # Drained: a second raid is said again.
    caplog.clear()
    release.clear()
    try:
        tasks = await queued_searches(searches, turns[: DM_MOST_WAITING + 1], release)
    finally:
        release.set()
    await asyncio.gather(*tasks)
    assert sum("direct messages" in r.getMessage() for r in caplog.records) == 1


# The scheme pattern as it stood (quote.py's since round 2, links.URL at 013676a): the reference
# for what `quote` defangs.
_OLD_URL = re.compile(r"([a-z][a-z0-9+.-]*):/+(\S*)", re.IGNORECASE)


_HOSTILE = [
    "a" * 400_000,  # one word of letters
    "a." * 200_000,  # "a.a.a.…": a scheme's characters, no colon
    "x" * 399_999 + ":",  # a colon at the very end, no slash
    "1" + "a-" * 200_000,
]


def test_the_link_patterns_read_a_long_run_without_rescanning_it() -> None:
    """V3: the scheme pattern had no anchor: on a run of a scheme's characters with no "://"
    it was tried again from each letter, scanning to the run's end each time: time square in
    the run's length (4,000 characters, a message's most: 0.1-0.5 s each for Explain terms
    in the shared worker, `only_links` and `quote` on the event loop, where 4,000 characters of
    words take 2 ms). Here 400,000 characters of each kind in one process of their own (a
    process each spent 2 s of its 2.3 importing the bot), which a linear reading does in well
    under a second a kind and the square one in hours: STUCK bounds the hang only."""
    code = (
        "from tests.outsider.test_review36 import _HOSTILE\n"
        "from bot.glossary.links import only_links, without_links\n"
        "from bot.cards.quote import quote\n"
        "for n, text in enumerate(_HOSTILE):\n"
        "    print(n, flush=True)  # the kind a hang is in\n"
        "    assert without_links(text) == text and not only_links(text), n\n"
        "    quote(text, 100)\n"
        "print('done')"
    )
    done_in_a_process(code, kinds=len(_HOSTILE))


def done_in_a_process(code: str, kinds: int = 1) -> None:
    """Run `code` in a Python process of its own (a hang is killed there, not in the suite),
    which must print "done" last; STUCK x 3 for each of its `kinds` bounds the hang only."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=STUCK * 3 * kinds,
        check=False,
    )
    assert done.stdout.strip().splitlines()[-1:] == ["done"], done


def test_quote_defangs_exactly_what_it_did(monkeypatch: pytest.MonkeyPatch) -> None:
    """V5: the linear pattern defangs the same links as the old one, and `only_links` reads
    the same texts as links only, on 20,000 short strings drawn from the characters that
    matter (a scheme's, ':', '/', spaces, a non-ASCII letter) and on test_outside_round2's
    baits; the old pattern is put back in `quote` for the reference."""
    draw = random.Random(36)
    alphabet = "ah1.-+:/ _é<>"
    texts = ["1https://e.x/a", "_https://e.x", "éhttps://e.x", "RAG.https://e.x", "svn+ssh://h.x"]
    texts += [
        "".join(draw.choice(alphabet) for _ in range(draw.randint(1, 14))) for _ in range(20_000)
    ]
    actual = [(quote(text, 1000), only_links(text)) for text in texts]
    monkeypatch.setattr(quote_module, "URL", _OLD_URL)
    # With today's defanging of the run after the scheme (review37: a second ":/" in it too).
    monkeypatch.setattr(quote_module, "_defang", lambda f: f"{f[1]}[:]//{defanged_rest(f[2])}")
    expected = [(quote(text, 1000), _old_only_links(text)) for text in texts]
    for text, got, want in zip(texts, actual, expected, strict=True):
        assert got == want, text


def _old_only_links(text: str) -> bool:
    rest, found = _OLD_URL.subn(" ", text)
    rest, more = links.SCHEMELESS.subn(" ", rest)
    return found + more > 0 and not any(ch.isalnum() for ch in rest)


_BUNDLED: list[SearchIndex] = []


def _bundled() -> SearchIndex:
    if not _BUNDLED:
        _BUNDLED.append(SearchIndex.build(load_glossary()))
    return _BUNDLED[0]


@pytest.mark.parametrize(
    "text",
    [
        "Read about RAG.https://example.com/guide and more",  # a space forgotten after a full stop
        "RAG-https://example.com/guide",
        "see <https://example.com/guide>RAG",  # Discord's link in angle brackets ends at ">"
        "[RAG](https://example.com/guide)",
        "e.g. RAG",
        "i.e. RAG",
        "v1.2.3 RAG",
        "10.0.0.1 RAG",
        "see x.py: RAG",
    ],
)
def test_a_term_beside_a_link_is_still_explained(text: str) -> None:
    """V4: Explain terms blanks links before reading terms (a link's address names none), but
    the scheme pattern, made to defang whatever Discord might link, took a word joined to the
    scheme by "." or "-" as part of it ("RAG.https" read as a scheme), and a link in angle
    brackets ran on past its ">": the term beside it was blanked with the link."""
    named = [m.entry_id for m in _bundled().find_named_terms(text)]
    assert named == ["rag"], named
    assert "example" not in without_links(text)  # the link itself is still blanked


def test_a_snapshots_copy_with_no_room_names_tmpdir(tmp_path: Path) -> None:
    """V7: `stats` of a bot's file alone in a read-only folder reads it through a copy in
    TMPDIR; with no room there (a write past 16 KiB fails, as on a full disk) it said "… read
    through a copy in /tmp/glossary-bot-read-x1y2, which failed: cannot write the backup to
    /tmp/glossary-bot-read-x1y2/g.db: …": a folder gone once it ended, twice, "the backup" of
    a command that makes none, and not the setting to change. Now TMPDIR and its folder."""
    folder, scratch = tmp_path / "snap", tmp_path / "scratch"
    folder.mkdir()
    scratch.mkdir()
    _database(folder / "g.db", lookups=1)
    folder.chmod(0o555)
    try:
        done = _cli(
            tmp_path,
            "stats",
            "--db",
            "snap/g.db",
            prefix=without_permission_override(),
            file_size_limit=16384,
            TMPDIR=str(scratch),
        )
    finally:
        folder.chmod(0o755)
    assert done.returncode == 1, done
    line = done.stderr.strip()
    assert "\n" not in line, done
    assert not done.stdout, done
    assert line.startswith("glossary-bot: error: snap/g.db is in a read-only folder"), line
    assert f"a copy in TMPDIR ({scratch})" in line, line
    assert "glossary-bot-read-" not in line, line
    assert "backup" not in line, line
    assert list(scratch.iterdir()) == [], list(scratch.iterdir())
    assert sorted(p.name for p in folder.iterdir()) == ["g.db"]


def test_a_command_under_a_file_size_limit_leaves_no_cut_bytecode(tmp_path: Path) -> None:
    """Found on the way to V7: `glossary-bot` run with a file size limit (the tests' full disk,
    `file_size_limit`) compiled the modules it imported first, and Python writes a module's
    bytecode without checking the write: files past the limit were cut at 16 KiB and renamed
    into `__pycache__`, and every later import of them, in any test or process, failed with
    "EOFError: marshal data too short" (seen: bot/cli.py, storage/store.py and six more, after
    an edit). Here the bytecode goes to a folder of the test's own (PYTHONPYCACHEPREFIX): each
    file written there is whole."""
    prefix = tmp_path / "pycache"
    (tmp_path / "scratch").mkdir()
    _cli(
        tmp_path,
        "stats",
        "--db",
        "missing.db",
        file_size_limit=16384,
        PYTHONPYCACHEPREFIX=str(prefix),
    )
    cut = []
    for compiled in prefix.rglob("*.pyc"):
        try:
            marshal.loads(compiled.read_bytes()[16:])
        except (EOFError, ValueError):
            cut.append(compiled.relative_to(prefix))
    assert cut == [], cut


async def test_many_reloads_free_every_old_glossary(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """V10: the collector's set-aside across reloads: the first glossary (set aside at the
    first ready) and each later one, a `/define` served by each (its server cache made), are
    freed once replaced and the servers' caches of them idle (STALE_IDLE_AFTER, by the cache's
    clock); nothing is set aside again."""
    set_aside = _note_set_aside(monkeypatch)
    async with start_bot(store) as bot:
        await asyncio.wait_for(set_aside.wait(), STUCK)
        old: list[weakref.ref[SearchIndex]] = []
        for _ in range(5):
            await define(scene.fake, scene.alice, "rag", scene.channel)
            old.append(weakref.ref(bot.state.index))
            assert bot.state.reload().startswith("reloaded")
        _, card = await define(scene.fake, scene.alice, "rag", scene.channel)  # the last serves
        assert embed_of(card)["title"].startswith("Retrieval-Augmented Generation")
        servers = bot.state.servers
        now = servers.clock()
        servers.clock = lambda: now + STALE_IDLE_AFTER + 1
        servers.drop_idle()  # as its watch does each interval
        gc.collect()
        assert [ref() is None for ref in old] == [True] * len(old)
        assert gc.get_freeze_count() == 0


def _glossary_bot(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """`glossary-bot ARGS` in this process (its exit status and all it said): the restores'
    numbering is what is checked, and a process each (16) took 20 s, 130 s on a loaded
    machine; `restore` in a process of its own is test_readme35's."""
    capsys.readouterr()
    status = main(list(args))
    said = capsys.readouterr()
    return status, said.out + said.err


def test_restores_number_what_they_keep_in_order_after_one_is_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """V6: ten restores in a row keep ten copies, each named in its closing line, numbered in
    the order they were kept (README: ".1, then .2"). But the number was the first free one:
    once an operator removed an old copy (`….before-restore.1`), the next restore's went there,
    below older ones, and the newest was no longer the highest. Now the one past the highest."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GLOSSARY_PATHS", "")  # the bundled glossary, as CLI_ENV's
    for name in ("DATABASE_URL", "DATABASE_PATH"):
        monkeypatch.delenv(name, raising=False)
    db, first, second = tmp_path / "glossary-bot.db", tmp_path / "a.db", tmp_path / "b.db"

    def with_alias(database: Path, alias: str) -> None:
        rows = [{"guild_id": 7, "alias": alias, "entry_id": "rag"}]
        (tmp_path / "aliases.json").write_text(json.dumps(rows))
        status, output = _glossary_bot(
            capsys, "aliases", "import", "aliases.json", "--db", str(database)
        )
        assert status == 0, output

    def aliases(database: Path) -> list[str]:
        status, output = _glossary_bot(capsys, "aliases", "export", "--db", str(database))
        assert status == 0, output
        return sorted(row["alias"] for row in json.loads(output))

    with_alias(db, "qq live")
    with_alias(first, "qq first")
    with_alias(second, "qq second")
    kept = Path(f"{db}.before-restore")
    for n in range(10):  # a, b, a, b, …
        status, output = _glossary_bot(
            capsys, "restore", str((first, second)[n % 2]), "--db", str(db)
        )
        assert status == 0, output
        if n:
            assert f"the copy an earlier restore kept is now {kept}.{n}" in output, output
    # left40: the three highest numbers are kept (.7, .8, .9), older ones removed
    assert aliases(Path(f"{kept}.7")) == ["qq second"]  # as the 6th restore left it
    assert aliases(kept) == ["qq first"]  # the 9th restore's, of a.db
    Path(f"{kept}.8").unlink()
    status, output = _glossary_bot(capsys, "restore", str(second), "--db", str(db))
    assert status == 0, output
    assert f"the copy an earlier restore kept is now {kept}.10" in output, output
    assert not Path(f"{kept}.8").exists()
