"""Leftovers of rounds 20 and 21 (task left25, PLAN.md "Leftovers of rounds 20-21"): through the
real bot (discord.py) against the fake Discord, and the real command line in a process of its
own on real SQLite files."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import is_ephemeral
from tests.resilience.botproc import BotProcess

from .conftest import Scene
from .test_left24 import in_a_read_only_folder
from .test_round6 import health_until
from .test_round7 import title_of

SLOW = "You're going a bit fast"


async def test_talk_under_a_card_uses_none_of_the_members_lookups(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """A reply under the bot's card pings it (Discord lists the bot in `mentions`); chatter
    there is left unanswered, but each such reply took one of the member's lookups before it
    was searched: three words of chat under a card and `/define` said "going a bit fast".
    Now chatter costs no lookup; such replies have a limit of their own (the search each makes
    stays bounded), and one that finds a card takes a lookup as a mention does."""
    fake = scene.fake
    async with start_bot(store, cooldown=(3, 60.0)):
        await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} rag")
        card = await fake.wait_for_channel_message(scene.channel)
        assert title_of(card) == "Retrieval-Augmented Generation (RAG)", card
        for chatter in ("ok we will use this in the pipeline tomorrow", "thanks!", "lol"):
            await fake.user_message(scene.bob, scene.channel, chatter, reply_to=card)
        looked_up = await fake.slash(
            scene.bob, "define", {"term": "kv cache"}, channel=scene.channel
        )
        assert title_of(await looked_up.final_message()) == "KV Cache"
        # A fourth reply within the minute is past the replies' own limit: not searched, though
        # it would find a card; it takes no lookup either.
        unsearched = await fake.user_message(
            scene.bob, scene.channel, "and kv cache?", reply_to=card
        )
        asked = await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} rag")
        answer = await fake.wait_for_channel_message(scene.channel)
        assert answer["message_reference"]["message_id"] == asked["id"], answer
        replied_to = [
            m.get("message_reference", {}).get("message_id")
            for m in fake.store.channel_messages(scene.channel.id)
        ]
        assert unsearched["id"] not in replied_to
        for term in ("lora", "rag"):  # bob's second and third lookups
            looked_up = await fake.slash(scene.bob, "define", {"term": term}, channel=scene.channel)
            assert SLOW not in str((await looked_up.final_message()).get("content")), term
        # A reply that finds a card is a lookup: alice's third, then /define is one too many.
        asked = await fake.user_message(scene.alice, scene.channel, "and kv cache?", reply_to=card)
        answer = await fake.wait_for_channel_message(scene.channel)
        assert answer["message_reference"]["message_id"] == asked["id"], answer
        assert title_of(answer) == "KV Cache", answer
        refused = await fake.slash(scene.alice, "define", {"term": "lora"}, channel=scene.channel)
        assert str((await refused.final_message()).get("content")).startswith(SLOW)


def on_a_read_only_mount(folder: Path) -> list[str]:
    """A command prefix under which `folder` is an empty file system mounted read-only (as a
    `:ro` volume is), in a mount namespace of the command's own."""
    unshare = shutil.which("unshare")
    prefix = [unshare or "unshare", "--user", "--map-root-user", "--mount"]
    prefix += ["sh", "-c", 'mount -t tmpfs -o ro tmpfs "$0" && exec "$@"', str(folder)]
    if unshare is None or subprocess.run([*prefix, "true"], check=False).returncode != 0:
        pytest.skip("no unshare with user and mount namespaces: no read-only mount to be had")
    return prefix


async def test_a_read_only_volume_is_called_one(scene: Scene, tmp_path: Path) -> None:
    """Plan line O30: a volume mounted read-only (`:ro`) was said to be "not writable by this
    process (user 10001)", as if it were a matter of its owner. Now the line says the folder
    is on a read-only file system, naming DATABASE_PATH as before; `health` names it too."""
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "glossary-bot.db"
    heartbeat = tmp_path / "heartbeat"
    prefix = on_a_read_only_mount(folder)
    async with BotProcess(
        scene.fake, db, cwd=tmp_path, prefix=prefix, HEARTBEAT_PATH=str(heartbeat)
    ) as bot:
        handle = await scene.fake.slash(
            scene.alice, "define", {"term": "kv cache"}, channel=scene.channel
        )
        assert (await handle.final_message())["embeds"][0]["title"] == "KV Cache"
        said = await health_until(dict(bot.env), tmp_path, "could not be opened")
    [line] = [line for line in bot.lines if "cannot open the database" in line]
    assert f"DATABASE_PATH={db}" in line, line
    assert f"its folder {folder} is on a read-only file system" in line, line
    assert "not writable by this process" not in line, line
    assert said.startswith("1 unhealthy: "), said
    assert f"{db}" in said, said


async def test_explain_terms_says_a_pasted_text_in_an_attached_file_is_not_read(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Plan line O12: Discord's client sends a paste past the message's length as an attached
    `message.txt` (text/plain) with no content. "Explain terms" on it said "I found no glossary
    terms in that message", as if it had read the text. Now it says the text is in an attached
    file it does not read (nothing is downloaded); a picture alone is still "no terms"."""
    fake = scene.fake
    paste = "we tried rag with a kv cache and lora adapters\n" * 100
    pasted = fake.add_attachment(
        "message.txt", paste, content_type="text/plain; charset=utf-8", channel=scene.channel
    )
    said = await fake.user_message(scene.bob, scene.channel, "", attachments=[pasted])
    answer = await (await fake.message_command(scene.alice, "Explain terms", said)).final_message()
    assert is_ephemeral(answer), answer
    assert answer["content"] == (
        "That message's text is in an attached file (message.txt), which I don't read: "
        "`/define` looks up a term from it."
    ), answer
    assert pasted.downloads == 0
    noted = await fake.user_message(scene.bob, scene.channel, "see the log", attachments=[pasted])
    answer = await (await fake.message_command(scene.alice, "Explain terms", noted)).final_message()
    assert answer["content"] == (
        "I found no glossary terms in that message (I don't read its attached file, message.txt)."
    ), answer
    picture = fake.add_attachment("rag.png", b"\x89PNG", channel=scene.channel)
    shown = await fake.user_message(scene.bob, scene.channel, "", attachments=[picture])
    answer = await (await fake.message_command(scene.alice, "Explain terms", shown)).final_message()
    assert answer["content"] == "I found no glossary terms in that message.", answer


def test_migrate_db_copies_out_of_a_read_only_snapshot(tmp_path: Path) -> None:
    """Round 20's leftover (left24): `migrate-db --from` a database alone in a read-only folder
    (a snapshot) was refused, "the database's folder … is read-only", while `backup` of it
    worked: the copy read it through the bot's connection, which makes a `-shm` beside it. Now
    it is read as `backup` reads it, into a temporary file first; the folder stays as it was."""
    folder = tmp_path / "snapshot"
    command = ("migrate-db", "--from", "snapshot/g.db", "--to", "copy.db")
    done, before = in_a_read_only_folder(folder, *command, lookups=300)
    assert done.returncode == 0, done
    assert done.stdout.startswith("copied snapshot/g.db to copy.db: 300 lookups,"), done.stdout
    assert done.stderr == "", done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["g.db"]
    assert (folder / "g.db").read_bytes() == before
    with contextlib.closing(sqlite3.connect(tmp_path / "copy.db")) as copy:
        assert copy.execute("SELECT count(*) FROM lookups").fetchone() == (300,)
        assert copy.execute("SELECT key, entry_id FROM aliases").fetchall() == [("stash", "rag")]
