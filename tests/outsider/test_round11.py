"""What an eleventh round of outside testing found through `glossary-bot run`, the command line
and the real client against the fake Discord (tests/outsider/PLAN.md, round 11)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from bot.storage import Store
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import define, embed_of
from tests.multiprocess.test_shards import world
from tests.polling import eventually
from tests.resilience.botproc import CLI_ENV, BotProcess, glossary_bot_here
from tests.resilience.helpers import hung_database
from tests.resilience.test_shard_claims import answers_on, end_sessions, process_of, refused

from .conftest import Scene

# Passwords as a provider's console makes them, pasted into the URL as they are. Each holds a
# character that ends the URL's user:password part early unless percent-encoded; the second of
# each pair is a piece of the password that must never be shown.
RESERVED_IN_PASSWORD = [
    ("postgresql://glossary:gl@ss#x9@127.0.0.1:1/glossary", "ss#x9"),
    ("postgresql://glossary:Pq@ssw0rd@127.0.0.1:1/glossary", "ssw0rd"),
    ("postgresql://glossary:Pq?Zw9@127.0.0.1:1/glossary", "Pq?Zw9"),
    ("postgresql://glossary:Pq/Zw9@127.0.0.1:1/glossary", "Pq/Zw9"),
]


@pytest.mark.parametrize(("url", "secret"), RESERVED_IN_PASSWORD)
def test_a_password_with_a_reserved_character_is_named_and_never_shown(
    tmp_path: Path, url: str, secret: str
) -> None:
    """Plan line U2: a password holding `@`, `#`, `?` or `/` written into DATABASE_URL as it is.
    The URL then parses with another host, port or path than the operator meant: the bot said
    "cannot reach the database at postgresql://glossary@ss#x9@127.0.0.1…: Name or service not
    known" or "database error at postgresql://glossary:Pq?Zw9@…: bad query field", showing the
    password, or part of it, and not saying why. Now one line naming DATABASE_URL and the
    percent-encoding, without the password; `--db URL` likewise names the URL's problem."""
    status, said = glossary_bot_here({**CLI_ENV, "DATABASE_URL": url}, tmp_path, "stats")
    assert status == 2, said
    assert len(said.strip().splitlines()) == 1, said
    assert "DATABASE_URL" in said, said
    assert "percent-encode" in said, said
    assert secret not in said, said

    status, said = glossary_bot_here(CLI_ENV, tmp_path, "stats", "--db", url)
    assert status == 1, said
    assert len(said.strip().splitlines()) == 1, said
    assert "percent-encode" in said, said
    assert secret not in said, said


@pytest.mark.postgres
async def test_shard_claims_lost_with_their_session_are_taken_again(tmp_path: Path) -> None:
    """Plan line P2: PostgreSQL restarted (here: the claims' session ended, as a restart ends
    it) under two shard processes. Each logged that overlapping SHARD_IDS were no longer
    refused "until it restarts", and so it stayed: a third process started with SHARD_IDS 1,2
    ran beside them, IDENTIFYing shards the others held (Discord answers 4005, or drops the
    other's session) in a loop. Now each process claims its shards again once the database
    answers, says so, and the third is refused as at a start."""
    async with world() as w:
        first = process_of(w, [0, 1], tmp_path)
        second = process_of(w, [2, 3], tmp_path)
        async with first, second:
            await answers_on(w, [0, 2])
            for process, ids in ((first, "0,1"), (second, "2,3")):
                assert process.process is not None
                named = f"glossary-bot shards {ids} pid {process.process.pid} on %"
                assert await end_sessions(w.url, named) == 1
                await process.wait_for_output(r"ERROR .*shard claims has ended")
                await process.wait_for_output(r"INFO .*shard claims taken again", within=30)
            line = await refused(process_of(w, [1, 2], tmp_path))
            assert line.startswith("glossary-bot: SHARD_IDS 1,2: shard 1 is already run "), line
            await answers_on(w, [1, 3])
    for process in (first, second):
        assert "Traceback" not in process.output, process.output


async def test_a_database_that_does_not_answer_is_one_warning_a_streak_not_one_a_lookup(
    scene: Scene, start_bot: StartBot, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """Plan line P1: PostgreSQL gone under two shard processes. Every `/define` in a server whose
    aliases were not read yet logged "could not read aliases and terms of …; answering
    without": 26 WARNING lines for 40 lookups in the probe, so as many a second as the bot has
    lookups for as long as the database is away. Now one line when it starts failing, one when
    it reads again, and one again at the next outage."""
    caplog.set_level(logging.INFO, logger="bot.discord_app.alias_cache")
    async with start_bot(store, read_timeout=0.05) as bot:
        # The server's first read (at start, or this ask's) ends before the database hangs: one
        # still indexing then is kept when it ends, and the asks below answered from it with
        # nothing to warn of (failed 4 runs of 6 beside five busy processes).
        await define(scene.fake, scene.alice, "rag", scene.channel)
        await eventually(lambda: bot.state.servers.knows(scene.guild.id), "the server read")
        with hung_database(store) as answering:
            bot.state.servers.forget(scene.guild.id)  # not read yet, as just after a start
            for term in ("rag", "lora", "kv cache", "rag", "lora"):
                _, message = await define(scene.fake, scene.alice, term, scene.channel)
                assert embed_of(message)["title"], message
            said = [
                r.getMessage()
                for r in caplog.records
                if r.name == "bot.discord_app.alias_cache" and r.levelno >= logging.WARNING
            ]
            assert len(said) == 1, said
            assert "could not read the aliases and terms" in said[0], said
            answering.set()
            _, message = await define(scene.fake, scene.alice, "rag", scene.channel)
            assert embed_of(message)["title"], message
            await eventually(
                lambda: any("the database answers" in r.getMessage() for r in caplog.records),
                "read again",
            )


# Plan lines F1-F5: what the running bot answered (a card, "Did you mean" or "No entry").
FOREIGN = {
    "¿qué es un transformer?": "Transformers",
    "什么是注意力机制": "Attention Mechanism",
    "RAG 是什么": "Retrieval-Augmented Generation (RAG)",
    "o que é RAG?": "Retrieval-Augmented Generation (RAG)",
    "explique janela de contexto": "Context Windows",
    # a particle glued to the word: no entry when found (PLAN.md F1), the word read since (bugs12)
    "트랜스포머가 뭐야?": "Transformers",
    "🤖🧠": None,
}


async def test_questions_in_other_languages_through_the_running_bot(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan lines F1-F5, found fine: the new search input end to end through `glossary-bot
    run`. `/define` and a mention answer alike, a card or an honest "No entry" (recorded as a
    miss, as typed, unless it names nothing: emoji alone); Explain terms on a message in Portuguese lists the English names in it;
    autocomplete with a foreign partial word offers nothing rather than a guess."""
    fake = scene.fake
    db = tmp_path / "glossary.sqlite3"
    async with BotProcess(fake, db, cwd=tmp_path, COOLDOWN_USES="1000") as bot:
        for query, title in FOREIGN.items():
            _, message = await define(fake, scene.alice, query, scene.channel)
            await fake.user_message(scene.bob, scene.channel, f"{fake.bot.mention} {query}")
            reply = await fake.wait_for_channel_message(scene.channel)
            for answer in (message, reply):
                if title is None:
                    assert answer["content"].startswith(f"No entry for “{query}”"), answer
                else:
                    assert embed_of(answer)["title"] == title, (query, answer)
        text = (
            "Alguém sabe o que é aprendizado por reforço? E a janela de contexto do LLM? Usei "
            "RAG com fine-tuning e o cache KV ficou grande."
        )
        posted = await fake.user_message(scene.alice, scene.channel, text)
        listing = await (
            await fake.message_command(scene.alice, "Explain terms", posted)
        ).final_message()
        listed = embed_of(listing)["description"]
        for name in (
            "Large Language Model (LLM)",
            "Retrieval-Augmented Generation (RAG)",
            "Fine-Tuning",
        ):
            assert f"**{name}**" in listed, listed
        for partial in ("aprendiz", "트랜", "注意", "atenç"):
            handle = await fake.autocomplete(
                scene.alice, "define", {"term": partial}, focused="term", channel=scene.channel
            )
            assert await handle.choices() == [], partial
        assert await bot.stop() == 0
    assert "Traceback" not in bot.output, bot.output
    status, said = glossary_bot_here(CLI_ENV, tmp_path, "stats", "--db", str(db), "--json")
    assert status == 0, said
    misses = {miss["query"] for miss in json.loads(said)["top_misses"]}
    # emoji alone name nothing a moderator could add (no alias nor term takes them): an honest
    # "No entry", no miss (product73, as product72 for Discord markup)
    assert "🤖🧠" not in misses, misses


@pytest.mark.postgres
def test_spaces_inside_the_quotes_of_database_url_are_not_part_of_it(tmp_path: Path) -> None:
    """Plan line U2: `DATABASE_URL = " postgresql://… "` in `.env`, spaces inside the quotes
    (pasted with them). The check of the URL trimmed them but the bot used the URL as given:
    "database "glossary_test " does not exist". Now the URL is used trimmed, as checked."""
    # The URL ends in the database's name (a query would take the space instead).
    (tmp_path / ".env").write_text(f'DATABASE_URL = " {TEST_DATABASE_URL} "\n', encoding="utf-8")
    _, said = glossary_bot_here(CLI_ENV, tmp_path, "aliases", "export")
    # Whatever that database holds, it was reached.
    assert "does not exist" not in said, said
