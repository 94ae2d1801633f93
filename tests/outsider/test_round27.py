"""Outside testing round 27: a member's whole day, and every input at its limit or of the wrong
shape (tests/outsider/PLAN.md, round 27).

Through the real bot (discord.py) against the fake Discord, on real SQLite files, and the
command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import define, fields, is_ephemeral
from tests.resilience.botproc import BotProcess

from .conftest import Scene

MISSED = "Searches that found nothing"
EXPLAIN_REPLIED = (
    "To see the terms in the message you replied to, use **Apps > Explain terms** on it: a "
    "mention shows me only your own words."
)


async def test_stats_lists_long_misses_whole_and_says_how_many_it_left_out(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Plan line T1: members whose searches miss write whole questions, and `/define` keeps up
    to 100 characters of each. Ten such misses are more than a field of 1,024 characters holds:
    `/stats` cut the list mid-line, its last miss a half-quoted fragment ("“zorbly frimble …
    […]") with its count lost, and did not say that misses were left out. Now it lists the
    misses that fit whole and says how many of its top ten it could not show."""
    fake = scene.fake
    for n in range(10):
        query = (f"zorbly frimble {n:02d} " + "wibblequox " * 10)[:100]
        _, answer = await define(fake, scene.alice, query, scene.channel)
        assert is_ephemeral(answer), answer
        assert answer["content"].startswith("No entry for"), answer
    shown = await fake.slash(scene.moderator, "stats", {}, channel=scene.channel)
    lines = fields(await shown.final_message())[MISSED].splitlines()
    *listed, rest = lines
    assert listed, lines
    for line in listed:
        assert line.startswith("“zorbly frimble "), lines
        assert line.endswith("”: 1×"), lines
    assert rest == f"…and {10 - len(listed)} more (too long to list here)", lines


def test_a_database_path_that_is_a_folder_is_named_as_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Plan line C1: `DATABASE_PATH` set to a folder (a volume's mount point, say, rather than
    a file in it): `stats`, `backup`, `prune`, `aliases export` and `terms export` said "there
    is no database at /data", which is there and is a folder. Now they say it is a folder and
    to name a file in it."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setenv("DATABASE_PATH", str(folder))
    for argv in (
        ["stats"],
        ["backup", str(tmp_path / "copy.db")],
        ["prune", "--older-than", "30"],
        ["aliases", "export"],
        ["terms", "export", "--guild", "1"],
    ):
        capsys.readouterr()
        status = main(argv)
        said = capsys.readouterr().err
        assert status == 1, (argv, said)
        assert said == (
            f"glossary-bot: error: DATABASE_PATH {folder} is a folder, not a database file: "
            f"name a file in it (such as {folder / 'glossary-bot.db'})\n"
        ), (argv, said)


async def test_run_on_a_database_path_that_is_a_folder_says_so(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line C1, `run`: the bot started without its database (as it does when one cannot
    be opened: /define stays up) and logged "the database file cannot be opened", nothing
    about why. Now the line says the path is a folder and to name a file in it."""
    folder = tmp_path / "data"
    folder.mkdir()
    async with BotProcess(scene.fake, folder, cwd=tmp_path) as bot:
        line = await bot.wait_for_output("cannot open the database")
        assert (
            f": it is a folder, not a database file: name a file in it (such as {folder}/" in line
        )
        assert "answering without counts and aliases" in line, line
        _, card = await define(scene.fake, scene.alice, "kv cache", scene.channel)
        assert card["embeds"][0]["title"] == "KV Cache"


async def test_a_mention_in_a_reply_to_a_member_points_at_explain_terms(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Plan line D2 (beside it): a member replies to another's message full of jargon with
    "@Glossary what does this mean?" (or the mention alone). A mention shows the bot only the
    mentioning message's own words (Discord withholds the replied-to message's text from a bot
    without the message content intent), so the bot answered "No entry for “what does this
    mean?”. Try another spelling…" and, for the mention alone, "mention me with it", neither
    saying how to get what was asked. Now both name Apps > Explain terms on the replied-to
    message. A term named in such a reply still gets its card, without the note."""
    fake = scene.fake
    bot_mention = fake.bot.mention
    jargon = await fake.user_message(scene.bob, scene.channel, "we tuned it with LoRA behind RAG")
    for said in (f"{bot_mention} what does this mean?", bot_mention, f"{bot_mention} explain"):
        await fake.user_message(scene.alice, scene.channel, said, reply_to=jargon)
        answer = await fake.wait_for_channel_message(scene.channel)
        assert answer["content"].endswith(EXPLAIN_REPLIED), (said, answer["content"])
    await fake.user_message(scene.alice, scene.channel, f"{bot_mention} kv cache", reply_to=jargon)
    answer = await fake.wait_for_channel_message(scene.channel)
    assert answer["embeds"][0]["title"] == "KV Cache", answer
    assert EXPLAIN_REPLIED not in answer["content"], answer
    await fake.user_message(scene.alice, scene.channel, f"{bot_mention} what does this mean?")
    answer = await fake.wait_for_channel_message(scene.channel)  # no reply: no note
    assert EXPLAIN_REPLIED not in answer["content"], answer
    dm = fake.dm_channel(scene.alice)  # in DMs every message is read: nothing withheld
    mine = await fake.user_message(scene.alice, dm, "zorbly frimble")
    await fake.wait_for_channel_message(dm)
    await fake.user_message(scene.alice, dm, "what does this mean?", reply_to=mine)
    answer = await fake.wait_for_channel_message(dm)
    assert EXPLAIN_REPLIED not in answer["content"], answer
