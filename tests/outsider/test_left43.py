"""Leftovers of the last sessions' product rounds (tests/outsider/PLAN.md, "Leftovers
(left43)"): the real bot (discord.py) against the fake Discord, on real SQLite files."""

from __future__ import annotations

import contextlib
import json
import logging
import shutil
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.health import _say_shards
from bot.heartbeat import MAX_AGE
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import buttons, is_ephemeral
from tests.discord_app.term_commands import (
    TERM,
    TOML,
    add_term,
    open_add,
    open_edit,
    run_import,
    submit,
    suggest_from_a_miss,
)
from tests.discord_app.test_alias_permissions import PERMISSIONS_ROUTE
from tests.fake_discord.interactions import base_payload
from tests.fake_discord.models import EMBED_LINKS
from tests.resilience.botproc import CLI_ENV, glossary_bot_here, glossary_bot_run_here
from tests.resilience.test_malformed import command_id

from .conftest import Scene
from .test_left38 import _lookups_damaged
from .test_round16 import NO_LONGER, demote
from .test_round20 import _database


async def test_a_demoted_moderators_accept_opens_no_form(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Item 1 (outsider40 W6): `/term review` showed a suggestion; the moderator lost the role
    and pressed Accept…: the form opened, and only its save said they may no longer. Now the
    press is refused at once, privately, and the suggestion stays open."""
    await suggest_from_a_miss(scene)
    review = await scene.fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
    shown = await review.final_message()
    demote(scene)
    accepted = await scene.fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
    answer = await accepted.final_message()
    assert answer.get("content", "").startswith(NO_LONGER), answer
    assert is_ephemeral(answer), answer
    [still_open] = await store.open_suggestions(scene.guild.id)
    assert still_open.title == "zorblax"


async def test_a_demoted_moderators_edit_again_opens_no_form(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Item 1: a form refused (a related term that does not exist), its Edit again pressed after
    the moderator lost the role: the form opened again. Now the press is refused at once."""
    opened = await open_add(scene, scene.moderator, category="Retrieval & Context")
    submitted = await scene.fake.submit_modal(
        scene.moderator, opened, {**TERM, "related": "no such blorp"}
    )
    refused = await submitted.final_message()
    assert refused["content"].startswith("Nothing was saved"), refused
    demote(scene)
    again = await scene.fake.click(scene.moderator, refused, buttons(refused)["Edit again"])
    answer = await again.final_message()
    assert answer.get("content", "").startswith(NO_LONGER), answer
    assert is_ephemeral(answer), answer
    assert await read_terms(store, scene.guild.id) == []


async def test_a_moderator_still_allowed_gets_the_form_from_edit_again(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Item 1 (the other side): not demoted, Edit again opens the form as before."""
    opened = await open_add(scene, scene.moderator, category="Retrieval & Context")
    submitted = await scene.fake.submit_modal(
        scene.moderator, opened, {**TERM, "related": "no such blorp"}
    )
    refused = await submitted.final_message()
    again = await scene.fake.click(scene.moderator, refused, buttons(refused)["Edit again"])
    assert (await again.response())["type"] == 9


async def test_accept_opens_its_form_in_time_while_the_permissions_read_hangs(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Item 1: the check before a form cannot acknowledge first (the form must be the answer,
    within Discord's 3 s): with the server's Integrations overrides slow to come (here 4 s, its
    read given 10 s), it decides by `/term`'s defaults after `FORM_WAIT` and the form opens; the
    fake refuses an answer past its 3 s."""
    await suggest_from_a_miss(scene)
    review = await scene.fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
    shown = await review.final_message()
    bot.command_access.fetch_timeout = 10.0
    scene.fake.faults.delay("GET", PERMISSIONS_ROUTE, 4.0, times=1)
    accepted = await scene.fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
    assert (await accepted.response())["type"] == 9


async def test_a_form_saved_with_nothing_changed_says_so(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Item 2 (outsider40 W2): `/term edit`'s form saved as it opened wrote nothing (no audit
    row), but answered "Saved **Zorblax** in this server's glossary" as if it had."""
    await add_term(scene)
    logged = len(await store.term_audit_log(scene.guild.id))
    opened = await open_edit(scene, scene.moderator, "zorblax")
    answer = await submit(scene, scene.moderator, opened, {})
    assert answer["content"].startswith("Nothing changed: **Zorblax**"), answer["content"]
    assert "Saved" not in answer["content"], answer["content"]
    assert len(await store.term_audit_log(scene.guild.id)) == logged
    edited = await open_edit(scene, scene.moderator, "zorblax")
    saved = await submit(scene, scene.moderator, edited, {"definition": "A new definition."})
    assert saved["content"].startswith("Saved **Zorblax**"), saved["content"]


async def test_an_import_with_nothing_changed_says_so(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Item 2: the same file imported twice: the second answered "Imported: 0 added, 0 changed,
    0 removed.", which reads as if something was imported. Now it says nothing changed."""
    await run_import(scene, scene.fake.add_attachment("terms.toml", TOML))
    logged = len(await store.term_audit_log(scene.guild.id))
    again = await run_import(scene, scene.fake.add_attachment("terms.toml", TOML))
    assert again.startswith("Nothing changed: the file holds this server's terms as they are"), (
        again
    )
    assert len(await store.term_audit_log(scene.guild.id)) == logged


async def test_a_related_term_named_in_its_other_number_is_that_term(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Item 3 (outsider40 F10): Related terms "kv caches" (KV Cache's name in the plural) was
    refused, "no term of this server or the bundled glossary is called “kv caches”", though
    search reads it as KV Cache. Now it is that entry, stored by its id as any related name."""
    answer = await add_term(scene, {**TERM, "related": "kv caches, RAG"})
    assert answer["content"].startswith("Added **Zorblax**"), answer["content"]
    [stored] = await read_terms(store, scene.guild.id)
    assert stored.related == ("kv-cache", "rag"), stored.related


IMPORTED = """
[[entries]]
title = "Zorb Engine"
category = "Retrieval & Context"
definition = "The service that runs the nightly zorbs."
related = ["blorp jobs"]

[[entries]]
title = "Blorp Job"
category = "Retrieval & Context"
definition = "One night's run of the Zorb Engine."
related = ["zorb engines", "kv caches"]
"""


async def test_an_imported_related_term_in_its_other_number_is_that_term(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Item 3: a file's `related = ["zorb engines"]` for its own term "Zorb Engine" (and a
    bundled name in the plural) was refused; now each names that term."""
    said = await run_import(scene, scene.fake.add_attachment("terms.toml", IMPORTED))
    assert said.startswith("Imported: 2 added"), said
    related = {t.id: t.related for t in await read_terms(store, scene.guild.id)}
    assert related == {"zorb-engine": ("blorp-job",), "blorp-job": ("zorb-engine", "kv-cache")}


async def test_a_related_name_two_terms_share_in_their_other_numbers_is_still_refused(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Item 3 (its bound): "zorbes" is the other number of both "Zorb" and "Zorbe": which one
    is meant is not known, so it is refused as before."""
    both = IMPORTED.replace('title = "Zorb Engine"', 'title = "Zorb"').replace(
        'title = "Blorp Job"', 'title = "Zorbe"'
    )
    both = both.replace('["blorp jobs"]', "[]").replace('["zorb engines", "kv caches"]', '["x"]')
    both += """
[[entries]]
title = "Blorp"
category = "Retrieval & Context"
definition = "Names both of the others."
related = ["zorbes"]
"""
    said = await run_import(scene, scene.fake.add_attachment("terms.toml", both))
    assert said.startswith("Nothing was imported"), said
    assert "called “zorbes”" in said, said


TWO = """
[[entries]]
title = "Zorb Lax"
category = "Retrieval & Context"
definition = "The nightly zorb run, lax edition."

[[entries]]
title = "Blorp Other"
category = "Retrieval & Context"
definition = "The other blorp, not the nightly one."
"""

MIXED = """
[[entries]]
id = "zorb-lax"
title = "Blorp Other"
category = "Retrieval & Context"
definition = "The other blorp, now under Zorb Lax's id."

[[entries]]
title = "Zorb Lax"
category = "Retrieval & Context"
definition = "The nightly zorb run, lax edition."
"""


async def test_a_file_giving_a_terms_id_to_another_title_says_one_thing(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Item 4 (review41 A8's leftover): stored "Zorb Lax" (`zorb-lax`) and "Blorp Other"; a
    file gives `id = "zorb-lax"` to "Blorp Other" and has "Zorb Lax" without an id. The import
    answered "Changed: Blorp Other" and "Removed: Blorp Other" (the stored Blorp Other and its
    aliases gone, Zorb Lax's id moved to the other title, Zorb Lax added anew). Now the file
    is refused, naming both lines and what to do, and nothing is written."""
    said = await run_import(scene, scene.fake.add_attachment("terms.toml", TWO))
    assert said.startswith("Imported: 2 added"), said
    before = await read_terms(store, scene.guild.id)
    said = await run_import(scene, scene.fake.add_attachment("terms.toml", MIXED))
    assert said.startswith("Nothing was imported: 1 problem"), said
    assert "the id 'zorb-lax', which the file gives to “Blorp Other”" in said, said
    assert await read_terms(store, scene.guild.id) == before
    # Either way out, said once each: the id off "Blorp Other" changes Blorp Other alone...
    kept = MIXED.replace('id = "zorb-lax"\n', "")
    said = await run_import(scene, scene.fake.add_attachment("terms.toml", kept))
    assert said == "Imported: 0 added, 1 changed, 0 removed.\nChanged: Blorp Other", said
    # ...and "Zorb Lax" left out gives its term the new title, the old Blorp Other going.
    renamed = MIXED.split("[[entries]]")[1]
    said = await run_import(scene, scene.fake.add_attachment("terms.toml", "[[entries]]" + renamed))
    assert said == (
        "Imported: 0 added, 1 changed, 1 removed.\n"
        "Changed: Blorp Other (was Zorb Lax)\nRemoved: Blorp Other"
    ), said


async def test_a_related_button_pressed_before_the_embed_links_edit_leaves_no_card(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Item 5 (review42's attack 8): Discord posts a card without its embed where the bot
    lacks Embed Links (a thread it was never told about); the bot then edits the post into the
    Embed Links line. A related button pressed in that one round trip opened its card in the
    post (an interaction's answer keeps embeds), and the edit then put the line above that card.
    Now a press on a card post without its card answers the presser privately: the post ends as
    the line alone."""
    fake = scene.fake
    guild = scene.other_guild
    thread = guild.add_thread(scene.other_channel, "started meanwhile", scene.bob)
    for role in guild.roles.values():
        role.permissions &= ~EMBED_LINKS
    fake.delay("PATCH", "/channels/{channel_id}/messages/{message_id}", 1.0, times=1)
    await fake.user_message(scene.alice, thread, f"{fake.bot.mention} what is rag")
    posted = await fake.wait_for_channel_message(thread)
    assert not posted["embeds"], posted
    assert buttons(posted), posted
    related = next(iter(buttons(posted).values()))
    fake.settle_before_actions = False  # pressed while the edit is on its way
    try:
        pressed = await fake.click(scene.alice, posted, related)
        answer = await pressed.response()
    finally:
        fake.settle_before_actions = True
    assert answer["type"] == 4, answer
    assert is_ephemeral(answer["data"]), answer
    assert answer["data"]["embeds"], answer
    await fake.settle()
    now = fake.message(int(posted["id"]))
    assert now["content"].startswith("**Retrieval-Augmented Generation"), now
    assert "Embed Links" in now["content"], now
    assert not now["embeds"], now


def restoring_here(cwd: Path) -> tuple[Path, Callable[[], str]]:
    """test_readme35's `restoring`, its commands run in this process (`glossary_bot_here`: the
    copies' pruning and its words are tested, not the process; eight processes a test took
    50 s on a loaded machine). `restore` runs in processes of its own in test_readme35."""
    db, backup = cwd / "glossary-bot.db", cwd / "a.db"
    for path, alias in ((db, "qq live"), (backup, "qq backup")):
        (cwd / "aliases.json").write_text(
            json.dumps([{"guild_id": 7, "alias": alias, "entry_id": "rag"}])
        )
        status, output = glossary_bot_here(
            CLI_ENV, cwd, "aliases", "import", "aliases.json", "--db", str(path)
        )
        assert status == 0, output

    def restore() -> str:
        status, output = glossary_bot_here(CLI_ENV, cwd, "restore", str(backup), "--db", str(db))
        assert status == 0, output
        return output

    return Path(f"{db}.before-restore"), restore


def _aliases_here(cwd: Path, db: Path) -> list[str]:
    status, output = glossary_bot_here(CLI_ENV, cwd, "aliases", "export", "--db", str(db))
    assert status == 0, output
    return sorted(row["alias"] for row in json.loads(output))


def copy_moved_behind_a_link(folder: Path, kept: Path, restore: Callable[[], str]) -> Path:
    """Two restores (`….before-restore` and `.1` kept), then copy 1 moved to another disk
    (`folder`/other-disk) with a symlink left in its place, as an operator short of room does:
    where the copy is now."""
    for _ in range(2):
        restore()
    elsewhere = folder / "other-disk"
    elsewhere.mkdir()
    moved = elsewhere / "old-live.db"
    shutil.move(f"{kept}.1", moved)
    Path(f"{kept}.1").symlink_to(moved)
    return moved


def test_a_kept_copy_that_is_a_link_is_named_as_a_link(tmp_path: Path) -> None:
    """Item 6 (review41 A3's leftover): an operator moved `….before-restore.1` to another disk
    and left a symlink in its place; a later restore's pruning removed the link and said it
    "removed the oldest copies …: ….before-restore.1", while the database it points at stays
    (nothing lost, but the line says a whole copy went). Now the link is named as a link, with
    the file that stays."""
    kept, restore = restoring_here(tmp_path)
    moved = copy_moved_behind_a_link(tmp_path, kept, restore)
    for _ in range(3):  # .2, .3, .4 made: .1 pruned
        output = restore()
    assert "removed the oldest copies" not in output, output
    assert (
        f"removed the link {kept}.1 among the oldest copies earlier restores kept; the database "
        f"it points at, {moved}, stays (remove it when done)"
    ) in output, output
    assert not Path(f"{kept}.1").is_symlink()
    assert _aliases_here(tmp_path, moved) == ["qq live"]


def test_shards_lost_together_are_logged_in_one_line(caplog: pytest.LogCaptureFixture) -> None:
    """Item 7 (shards40, review42): a process of many shards losing them in one outage logged a
    line per shard, each state once: 150 lost shards were 150 INFO lines, 150 WARNINGs 45 s
    later and 150 on their return. Now the shards that change state on one beat share a line."""
    caplog.set_level(logging.INFO, logger="bot.discord_app.health")
    said: dict[int, str] = {}
    now = time.time()
    lost = dict.fromkeys([*range(150), 152, 160, 161], now - 1)
    _say_shards(lost, said)
    _say_shards(lost, said)  # the next beat: nothing new
    _say_shards({**lost, 200: now}, said)  # one more lost later: a line of its own
    _say_shards({**dict.fromkeys(lost, now - MAX_AGE - 2), 200: now}, said)
    _say_shards({200: now - MAX_AGE - 1}, said)  # the rest back; the last lost for 46 s
    _say_shards({}, said)
    lines = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert lines == [
        (
            logging.INFO,
            "shards 0-149,152,160,161 not connected to Discord: reconnecting (unhealthy after "
            "45 s)",
        ),
        (logging.INFO, "shard 200 not connected to Discord: reconnecting (unhealthy after 45 s)"),
        (
            logging.WARNING,
            "unhealthy: shards 0-149,152,160,161 not connected to Discord for 47 s (the "
            "process's other shards are)",
        ),
        (
            logging.WARNING,
            "unhealthy: shard 200 not connected to Discord for 46 s (the process's other shards "
            "are)",
        ),
        (logging.INFO, "shards 0-149,152,160,161 connected to Discord again"),
        (logging.INFO, "shard 200 connected to Discord again"),
    ], lines


async def test_stats_of_a_period_it_does_not_offer_is_refused_plainly(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Item 8: `/stats period:year`, a value the option does not offer (a client sending it
    raw): a short private line naming the periods there are."""
    fake = scene.fake
    data = {
        "id": command_id(scene, "stats"),
        "name": "stats",
        "type": 1,
        "options": [{"name": "period", "type": 3, "value": "year"}],
    }
    payload = base_payload(
        fake.world, kind=2, data=data, user=scene.moderator, channel=scene.channel
    )
    answer = await (await fake.raw_interaction(payload)).final_message()
    assert is_ephemeral(answer), answer
    assert answer["content"] == (
        "There is no period “year”: pick day, week, month or all (the default is week)."
    ), answer


def test_check_db_deep_reads_every_index_and_stored_text(tmp_path: Path) -> None:
    """Item 8 (left38's leftover): damage inside a stored text (an entry id's bytes, in the
    lookups table) passes SQLite's quick_check, which reads no text, so `check --db` said
    "0 error(s)" of a file `stats` refuses. `--deep` runs SQLite's full integrity_check (which
    finds that one: the entry id no longer matches its index) and reads every stored text as
    UTF-8 (a text no index holds: only so): 1.4-1.6 s on a 104 MB file, against quick_check's
    0.15-0.3 s (PLAN.md, left43). Without it, the check is as quick as before."""
    _lookups_damaged(tmp_path / "g.db", -20, b"\xff" * 10)  # inside the last row's entry id
    quick = glossary_bot_run_here(CLI_ENV, tmp_path, "check", "--db", "g.db")
    assert quick.returncode == 0, quick
    deep = glossary_bot_run_here(CLI_ENV, tmp_path, "check", "--db", "g.db", "--deep")
    assert deep.returncode == 1, deep
    errors = [line for line in deep.stdout.splitlines() if ": error: " in line]
    assert errors == [
        "g.db: error: cannot read the database: it fails SQLite's integrity check: row 1 "
        "missing from index lookups_by_hour"
    ], deep.stdout
    # A text no index holds (an alias's audit row, written with bytes that are no UTF-8).
    logged = _database(tmp_path / "logged.db", lookups=3)
    with contextlib.closing(sqlite3.connect(logged)) as conn, conn:
        conn.execute(
            "INSERT INTO audit_log (at, scope, actor_id, action, alias_key, after)"
            " VALUES (0, 7, 1, 'alias_add', 'qq', CAST(x'7b22ff' AS TEXT))"
        )
    assert glossary_bot_run_here(CLI_ENV, tmp_path, "check", "--db", "logged.db").returncode == 0
    deep = glossary_bot_run_here(CLI_ENV, tmp_path, "check", "--db", "logged.db", "--deep")
    assert deep.returncode == 1, deep
    errors = [line for line in deep.stdout.splitlines() if ": error: " in line]
    assert errors == [
        "logged.db: error: cannot read the database: it is damaged: a text in its table "
        "'audit_log', column 'after', is not UTF-8; restore it from a backup (glossary-bot "
        "restore)"
    ], deep.stdout
    _database(tmp_path / "whole.db", lookups=30)
    whole = glossary_bot_run_here(CLI_ENV, tmp_path, "check", "--db", "whole.db", "--deep")
    assert whole.returncode == 0, whole
