"""What a thirteenth round of outside testing found: a self-hoster's first hour, a server that
grows, a moderator's glossary over months, operators' slips, through `glossary-bot run` against
the fake Discord and the command line (tests/outsider/PLAN.md, round 13).
What a member sees of a suggestion or a greeting is checked on a bot in this process (a bot
process each cost ~8 s on a loaded machine; trim57b); logs, locks and signals on a process."""

from __future__ import annotations

import asyncio
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.glossary.interchange import parse_import
from bot.glossary.models import Glossary
from bot.heartbeat import check_heartbeat
from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import define
from tests.resilience.botproc import (
    CLI_ENV,
    BotProcess,
    glossary_bot_here,
    glossary_bot_waited,
)

from .conftest import Scene

CONFLICTED = """\
[[entries]]
id = "zorb-lax"
title = "Zorb Lax"
category = "Fundamentals"
definition = \"\"\"
<<<<<<< HEAD
A zorb that laxes.
=======
A lax of zorbs.
>>>>>>> feature
\"\"\"
"""


async def test_check_refuses_a_file_with_a_merge_conflict_in_it(tmp_path: Path) -> None:
    """Plan line X37: a maintainer's `git merge` left its markers inside a `\"\"\"` definition:
    `check` said "0 error(s)", and the card showed both sides and the markers. Now the file is
    refused, naming the marker's line, for every format (`kill -HUP` keeps the old glossary)."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "mine.toml").write_text(CONFLICTED, encoding="utf-8")
    status, said = glossary_bot_here(CLI_ENV, tmp_path, "check", str(folder))
    assert status == 1, said
    assert "mine.toml:6: error: an unresolved merge conflict" in said, said
    markdown = tmp_path / "mine.md"
    markdown.write_text("My Glossary¶\nZorb Lax¶\n<<<<<<< HEAD\nA zorb.\n", encoding="utf-8")
    status, said = glossary_bot_here(CLI_ENV, tmp_path, "check", str(markdown))
    assert status == 1, said
    assert "mine.md:3: error: an unresolved merge conflict" in said, said


def test_a_term_import_with_a_merge_conflict_in_it_is_refused(glossary: Glossary) -> None:
    """Beside X37: the same file as `/term import` (a server's export kept in git) imported the
    markers as the term's definition."""
    terms, problems = parse_import(CONFLICTED.encode(), "terms.toml", glossary)
    assert terms == []
    [problem] = problems
    assert problem.line == 6, problem
    assert "merge conflict" in str(problem), problem


@pytest.mark.parametrize("text", ["a <<<<<<< b\n", "<<<<<<<<\n", "=======\n", "<<<<<<x\n"])
def test_text_that_only_resembles_a_conflict_marker_is_read(text: str, glossary: Glossary) -> None:
    data = CONFLICTED.split("definition")[0] + f'definition = """\n{text}"""\n'
    terms, problems = parse_import(data.encode(), "terms.toml", glossary)
    assert [t.title for t in terms] == ["Zorb Lax"], problems


async def _mention_lost_before_its_reply(scene: Scene, tmp_path: Path, lose: str) -> BotProcess:
    """A mention whose reply is held up a moment (Discord slow) while the channel is deleted
    or the member deletes their message."""
    fake = scene.fake
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, LOG_FORMAT="json") as bot:
        fake.faults.delay("POST", "/channels/{channel_id}/messages", 1.0, times=1)
        message = await fake.user_message(
            scene.alice, scene.other_channel, f"{fake.bot.mention} rag"
        )
        if lose == "channel":
            del scene.other_guild.channels[scene.other_channel.id]
        else:
            fake.store.delete(int(message["id"]))
        await bot.wait_for_output("cannot reply to a mention")
        _, card = await define(fake, scene.alice, "rag", scene.channel)
        assert card["embeds"], "the bot carries on"
    return bot


@pytest.mark.parametrize("lose", ["channel", "message"])
async def test_a_mention_whose_channel_or_message_is_gone_is_one_warning(
    scene: Scene, tmp_path: Path, lose: str
) -> None:
    """Plan line X10: a mention whose channel was deleted (or whose message its author deleted)
    before the reply went out: an ERROR with a traceback under an error id nobody saw, then a
    second post of "Something went wrong" to the same missing channel. Now one WARNING."""
    bot = await _mention_lost_before_its_reply(scene, tmp_path, lose)
    refused = [v.kind for v in scene.fake.pop_violations()]  # one try, no error reply after it
    assert refused == ([] if lose == "channel" else ["invalid_form_body"]), refused
    assert "Traceback" not in bot.output, bot.output[-3000:]
    assert "error_id" not in bot.output, bot.output[-3000:]
    [line] = [x for x in bot.lines if "cannot reply to a mention" in x]
    assert '"level": "WARNING"' in line, line
    assert str(scene.other_channel.id) in line, line


def _long_terms(count: int) -> str:
    return "".join(
        f'[[entries]]\nid = "zorb-{i}"\ntitle = "Zorb {i}"\ncategory = "Fundamentals"\n'
        f'definition = "{"A zorb of many words. " * 100}"\n\n'
        for i in range(count)
    )


def _cli(cwd: Path, *args: str, file_size_limit: int | None = None) -> tuple[int, str]:
    return glossary_bot_waited(CLI_ENV, cwd, *args, file_size_limit=file_size_limit)


def test_an_export_onto_a_full_disk_leaves_no_cut_file(tmp_path: Path) -> None:
    """Plan line X32: `terms export -o FILE` on a disk that filled: "cannot write" and exit 1,
    right, but a cut file was left at FILE, ending mid-entry (or, cut between entries, a file
    that imports as a server with fewer terms: an import replaces them all), and yesterday's
    export there was gone. Now the file is written whole or left as it was."""
    terms = tmp_path / "terms.toml"
    terms.write_text(_long_terms(40), encoding="utf-8")
    db = tmp_path / "g.db"
    status, said = _cli(tmp_path, "terms", "import", str(terms), "--guild", "5", "--db", str(db))
    assert status == 0, said
    export = tmp_path / "export.toml"
    export.write_text("yesterday's export\n", encoding="utf-8")
    command = ("terms", "export", "--guild", "5", "--db", str(db), "-o", str(export))
    status, said = _cli(tmp_path, *command, file_size_limit=48_000)
    assert status == 1, said
    assert "cannot write" in said, said
    assert export.read_text(encoding="utf-8") == "yesterday's export\n"
    assert sorted(p.name for p in tmp_path.iterdir() if "export" in p.name) == ["export.toml"]
    status, said = _cli(tmp_path, *command)
    assert status == 0, said
    assert export.read_text(encoding="utf-8").count("[[entries]]") == 40


def test_a_backup_onto_a_full_disk_blames_the_disk_not_the_database(tmp_path: Path) -> None:
    """Beside X32: `backup` onto a disk that filled said "the database or disk is full", read
    as the bot's own database being full. Now it names the backup's file and its disk."""
    db = tmp_path / "g.db"
    terms = tmp_path / "terms.toml"
    terms.write_text(_long_terms(40), encoding="utf-8")
    status, said = _cli(tmp_path, "terms", "import", str(terms), "--guild", "5", "--db", str(db))
    assert status == 0, said
    small = tmp_path / "small"
    small.mkdir()
    status, said = _cli(
        tmp_path, "backup", "--db", str(db), str(small / "b.db"), file_size_limit=48_000
    )
    assert status == 1, said
    assert f"cannot write the backup to {small / 'b.db'}" in said, said
    assert list(small.iterdir()) == []


@pytest.mark.parametrize("ahead", [3600.0, 2.0])
def test_health_reads_a_heartbeat_dated_in_the_future(tmp_path: Path, ahead: float) -> None:
    """Plan line X34: the clock set back an hour (NTP's first sync on a host whose clock ran
    ahead, an operator's fix) after the bot's last heartbeat: `health` said "healthy: last
    heartbeat -3599 s ago" and would for the hour, whether the bot beat or not. A live bot
    writes the new time at its next beat, seconds later; a heartbeat far ahead is no news."""
    beat = tmp_path / "heartbeat"
    beat.write_text("1\n\n", encoding="utf-8")
    now = time.time()
    os.utime(beat, (now + ahead, now + ahead))
    healthy, said = check_heartbeat(beat, max_age=45, now=now)
    assert "-" not in said, said
    if ahead > 45:
        assert not healthy, said
        assert "ahead of this machine's clock" in said, said
    else:
        assert healthy, said
        assert said.startswith("healthy: last heartbeat 0 s ago"), said


async def test_sigterm_while_the_bot_starts_is_a_clean_stop(tmp_path: Path) -> None:
    """Plan line X29: `docker stop` (SIGTERM) in the bot's first second, while it read its
    settings and glossary: killed by the signal (exit 143, -15 to a parent), where a stop is
    exit 0 (README); a supervisor counts that as a crash. Here the `.env` is a pipe, so the bot
    is caught reading its settings when the signal comes."""
    env_file = tmp_path / ".env"
    os.mkfifo(env_file)
    bot = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "run",
        env={**CLI_ENV, "DISCORD_TOKEN": "x" * 60},
        cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    writer = await asyncio.to_thread(os.open, env_file, os.O_WRONLY)  # the bot opened it to read
    try:
        bot.send_signal(signal.SIGTERM)
        output, _ = await asyncio.wait_for(bot.communicate(), timeout=30)
    finally:
        os.close(writer)
    assert bot.returncode == 0, output.decode()
    assert b"Traceback" not in output, output.decode()


def test_health_says_when_the_heartbeat_folder_does_not_exist(tmp_path: Path) -> None:
    """Plan line X6: HEARTBEAT_PATH in a folder that is not there (a `--read-only` container
    whose /tmp is not a tmpfs is its cousin): the bot logged it once at start, but `health`,
    which the HEALTHCHECK runs every 30 s, said "no heartbeat … yet (starting, or never
    connected)" for as long as the bot ran. Now it says the folder is missing."""
    healthy, said = check_heartbeat(tmp_path / "gone" / "heartbeat")
    assert not healthy
    assert f"its folder {tmp_path / 'gone'} does not exist" in said, said
    assert "HEARTBEAT_PATH" in said, said
    healthy, said = check_heartbeat(tmp_path / "heartbeat")
    assert not healthy
    assert "(starting, or never connected)" in said, said


async def test_a_suggestion_named_by_a_mention_is_not_queued(
    scene: Scene, start_bot: StartBot, store: Store, tmp_path: Path
) -> None:
    """Plan line X27: `/suggest` of `@everyone`, `<@&123>` (a role) or `Zorb <@123>`: "Thanks!
    … is with this server's moderators", queued, where no moderator could accept it (a term's
    name may not hold a mention) and the member would be told "rejected" later. Now the member
    is told why at once and nothing is queued; a plain name is queued as before."""
    fake = scene.fake
    async with start_bot(store):  # the store is closed (written) when the block ends
        for name in ("@everyone", "<@&123>", "Zorb <@123>"):
            # Typed into the form's Term box (given as the option, it is refused before the
            # form opens: round 21 O17).
            opened = await fake.slash(
                scene.alice, "suggest", {"term": "Zorb"}, channel=scene.channel
            )
            await opened.response()
            sent = await fake.submit_modal(
                scene.alice, opened, {"title": name, "definition": "What it means."}
            )
            said = (await sent.final_message())["content"]
            assert said == "A term's name cannot contain mentions. Nothing was queued.", said
        opened = await fake.slash(
            scene.alice, "suggest", {"term": "Zorblax"}, channel=scene.channel
        )
        await opened.response()
        sent = await fake.submit_modal(scene.alice, opened, {"definition": "What it means."})
        assert (await sent.final_message())["content"].startswith("Thanks! “Zorblax”")
    status, said = glossary_bot_here(
        CLI_ENV, tmp_path, "stats", "--db", str(scene.db_path), "--json"
    )
    assert status == 0, said
    assert json.loads(said)["suggestions"]["open"] == 1, said


async def test_a_mention_where_the_bot_may_not_embed_gets_a_line_it_can_read(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line X12: a server that took Embed Links away (from @everyone, the bot's role
    included): a mention's answer was the card as an embed, which Discord accepts and does not
    show, so the member saw an empty reply and the operator no word. Now the reply says, in
    text, which card it is and what the bot needs there; the log says it once per channel."""
    fake = scene.fake
    embed_links = 1 << 14
    for role in scene.other_guild.roles.values():
        role.permissions &= ~embed_links
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="100") as bot:
        for _ in range(2):
            await fake.user_message(scene.alice, scene.other_channel, f"{fake.bot.mention} rag")
            answer = await fake.wait_for_channel_message(scene.other_channel)
            assert not answer["embeds"], answer
            assert "Retrieval-Augmented Generation" in answer["content"], answer
            assert "Embed Links" in answer["content"], answer
        await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} rag")
        elsewhere = await fake.wait_for_channel_message(scene.channel)
        assert elsewhere["embeds"], "a channel that allows embeds gets the card"
    said = [line for line in bot.lines if "Embed Links" in line]
    assert len(said) == 1, said
    assert str(scene.other_channel.id) in said[0], said


async def test_explain_terms_reads_words_with_invisible_characters(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Plan line X25: text pasted from a web page carries soft hyphens (`Trans\\u00adformer`)
    and zero-width spaces (`R\\u200bA\\u200bG`), which show nothing: `/define` reads those
    words (round 6 T2), but Explain terms said "I found no glossary terms in that message"."""
    fake = scene.fake
    text = "We tried a trans\u00adformer with R\u200bA\u200bG and a \u2060kv cache."
    async with start_bot(store):
        message = await fake.user_message(scene.alice, scene.channel, text)
        handle = await fake.message_command(scene.alice, "Explain terms", message)
        answer = await handle.final_message()
    listed = answer["embeds"][0]["description"] if answer["embeds"] else answer["content"]
    for title in ("Transformer", "Retrieval-Augmented Generation", "KV Cache"):
        assert title in listed, listed


def test_output_sent_to_a_full_disk_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    """Beside X32: `glossary-bot export > glossary.json` (or `stats --json > s.json` from cron,
    `terms export > terms.toml`) onto a disk that filled: a traceback ending "OSError: [Errno
    28] No space left on device". Now one line saying the output is cut short, exit 1."""
    limit = 64_000  # the glossary's JSON is far longer

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    with (tmp_path / "glossary.json").open("wb") as out:
        done = subprocess.run(
            [sys.executable, "-m", "bot.cli", "export"],
            env={**CLI_ENV, "PYTHONDONTWRITEBYTECODE": "1"},  # else cut under the limit (botproc)
            cwd=tmp_path,
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            preexec_fn=limited,
            check=False,
        )
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == [
        "glossary-bot: error: cannot write the output: File too large; what was written is "
        "cut short"
    ], done.stderr
