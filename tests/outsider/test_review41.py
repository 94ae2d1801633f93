"""Review of this session's merges (tests/outsider/PLAN.md, "Review of this session's merges
(review41)"). Real SQLite files, the real CLI; the real bot against the fake Discord."""

from __future__ import annotations

import shutil
from pathlib import Path

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from bot.term_storage import read_terms

from .conftest import Scene
from .test_readme35 import _aliases, restoring
from .test_round28 import _import, stopped_while_unreachable


def test_restore_leaves_a_copy_kept_by_hand_beside_the_numbered_ones(tmp_path: Path) -> None:
    """A1: restore's pruning took every file named `….before-restore.N-<anything>` for copy N's
    log, so a copy an operator kept by hand under such a name (`….before-restore.1-good`, the
    database before a wrong restore) was removed with copy 1, silently (only databases are
    named). Now only SQLite's own companions of a copy (-wal, -journal, -shm) go with it."""
    kept, restore = restoring(tmp_path)
    for _ in range(2):  # .before-restore and .1: the live database is .1 now
        restore()
    assert _aliases(tmp_path, Path(f"{kept}.1")) == ["qq live"]
    by_hand = Path(f"{kept}.1-good")
    shutil.copy(f"{kept}.1", by_hand)
    for _ in range(3):  # .2, .3, .4 made: .1 removed
        output = restore()
    assert (
        f"removed the oldest copies earlier restores kept (3 are kept beside the one just made): {kept}.1"
        in output
    ), output
    assert not Path(f"{kept}.1").exists()
    assert by_hand.exists(), sorted(p.name for p in tmp_path.iterdir())
    assert _aliases(tmp_path, by_hand) == ["qq live"]
    assert f"the copy an earlier restore kept is now {kept}.4" in output  # its number not taken


SHARD_RECONNECT = r"Attempting a reconnect for shard ID 0 in (\d+\.\d+)s"


async def test_a_sharded_bot_stopped_while_discord_is_unreachable_stops_at_once(
    scene: Scene, tmp_path: Path
) -> None:
    """A7: outsider40's stop between connections (round 28 U1) was for a bot of one
    connection only, "a sharded client's close ends its shards'". It does not: discord.py's
    AutoShardedClient sleeps a shard's reconnect backoff (after its first) in the connect loop
    itself, which closing the client does not wake, so a bot with SHARD_COUNT set waited out
    the stop's deadline as the unsharded one did. (Timed as round 28's: waiting out the
    deadline is the fault; the backoff slept through is made longer than the deadline first.)"""
    await stopped_while_unreachable(scene, tmp_path, SHARD_RECONNECT, within=180.0, SHARD_COUNT="1")


WRITTEN = """
[[entries]]
title = "{}"
category = "Retrieval & Context"
definition = "Our team's own meaning of it, written by hand."
"""


def _file(*titles: str) -> str:
    return "".join(WRITTEN.format(title) for title in titles)


async def test_a_hand_written_file_reordered_keeps_each_terms_id(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """A8: an entry without an id (a hand-written TOML's, since outsider40; a Markdown
    heading's) took the slug of its title in file order, so two terms whose titles slug alike
    ("C++ Zorb", "C# Zorb": `c-zorb`, `c-zorb-2`) swapped ids when the same file came back in
    another order, "2 changed" though nothing had, and an alias of one (it names the id) then
    opened the other's card; a new "C Zorb" put before them took `c-zorb` from "C++ Zorb". Now
    an id-less entry keeps the id of the stored term of its title, and a slug made for a new
    one does not take an id another entry of the file is to keep."""
    first = await _import(scene, _file("C++ Zorb", "C# Zorb"))
    assert first.startswith("Imported: 2 added, 0 changed, 0 removed."), first
    ids = {t.title: t.id for t in await read_terms(store, scene.guild.id)}
    added = await scene.fake.slash(
        scene.moderator,
        "alias add",
        {"alias": "qq plusplus", "term": ids["C++ Zorb"]},
        channel=scene.channel,
    )
    said = str((await added.final_message())["content"])
    assert said.startswith("Added"), said
    again = await _import(scene, _file("C Zorb", "C# Zorb", "C++ Zorb"))
    assert again.startswith("Imported: 1 added, 0 changed, 0 removed."), again
    now = {t.title: t.id for t in await read_terms(store, scene.guild.id)}
    assert {title: now[title] for title in ids} == ids, now
    await scene.fake.user_message(
        scene.alice, scene.channel, f"{scene.fake.bot.mention} qq plusplus"
    )
    answer = await scene.fake.wait_for_channel_message(scene.channel)
    assert [e["title"] for e in answer["embeds"]] == ["C++ Zorb"], answer
