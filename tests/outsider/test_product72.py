"""product72: the product leftovers of the seventh session (tests/outsider/PLAN.md, its
"product72" section), through the fake Discord and the real discord.py client."""

from __future__ import annotations

import asyncio
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from bot.term_storage import read_terms
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.helpers import buttons, define, is_ephemeral
from tests.resilience.botproc import glossary_bot_here

from .conftest import Scene
from .test_category71 import pick, refused_for_category
from .test_round11 import CLI_ENV

# What `/define` searches and misses but no suggestion may be named: a timestamp, a command
# link, accents with no letter under them.
UNNAMABLE = {
    "<t:1700000000:R>": "cannot contain Discord markup",
    "</define:123>": "cannot contain Discord markup",
    "\u0301\u0301": "needs a letter, digit or symbol, not accents alone",
    "\u0301 \u0301": "needs a letter, digit or symbol, not accents alone",
}


async def test_a_miss_offers_suggest_it_only_for_what_suggest_takes(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Failed before: each of UNNAMABLE was "No entry … ask a moderator to add it as an alias"
    with **Suggest it**, whose press `/suggest` refused ("A term's name cannot contain …"), and
    a miss /stats listed for an alias no moderator could add. Now the reason, no button, no
    miss; an emoji or an accented letter, which `/suggest` takes, still offers the form."""
    fake = scene.fake
    for text, why in UNNAMABLE.items():
        _, answer = await define(fake, scene.bob, text, scene.channel)
        assert answer["content"].startswith("No entry for “"), (text, answer)
        assert f"A term's name {why}" in answer["content"], (text, answer)
        assert "Suggest it" not in buttons(answer), (text, answer)
        assert is_ephemeral(answer), (text, answer)
        # `/suggest` of the same text: the same reading refuses it, before any form.
        asked = await fake.slash(scene.bob, "suggest", {"term": text}, channel=scene.channel)
        refused = await asked.final_message()
        assert f"A term's name {why}" in refused["content"], (text, refused)
    # Words beside the markup name something a moderator could add as an alias: a miss still.
    _, answer = await define(fake, scene.bob, "zqblorp <t:1700000000:R>", scene.channel)
    assert "Suggest it" not in buttons(answer), answer
    for text in ("🔧", "é"):
        _, answer = await define(fake, scene.bob, text, scene.channel)
        opened = await fake.click(scene.bob, answer, buttons(answer)["Suggest it"])
        assert (await opened.response())["type"] == 9, text  # the form
    await store.flush()
    missed = sorted(m.query for m in await store.top_misses(scene.guild.id))
    assert missed == ["zqblorp <t 1700000000 r", "é", "🔧"], missed


async def test_the_answer_to_a_category_pick_names_the_category(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Failed before: "Added **Zorblax** in this server's glossary: `/define zorblax`." named
    no category, the one thing the moderator had just chosen. The command's option is named
    the same way; a server's wording of a bundled entry (which takes that one's) is not."""
    refused = await refused_for_category(scene, scene.moderator)
    saved = await pick(scene, scene.moderator, refused, "Retrieval & Context")
    assert saved["content"] == (
        "Added **Zorblax** in this server's glossary, under **Retrieval & Context**: "
        "`/define Zorblax`."
    ), saved
    [term] = await read_terms(store, scene.guild.id)
    assert term.category == "Retrieval & Context"

    opened = await scene.fake.slash(
        scene.moderator, "term add", {"category": "Fundamentals"}, channel=scene.channel
    )
    await opened.response()
    values = {"title": "Qxkalo", "definition": "Our own word."}
    added = await (await scene.fake.submit_modal(scene.moderator, opened, values)).final_message()
    assert added["content"].startswith(
        "Added **Qxkalo** in this server's glossary, under **Fundamentals**:"
    ), added

    opened = await scene.fake.slash(scene.moderator, "term add", {}, channel=scene.channel)
    await opened.response()
    values = {"title": "Retrieval-Augmented Generation", "definition": "Our team's own words."}
    worded = await (await scene.fake.submit_modal(scene.moderator, opened, values)).final_message()
    assert worded["content"].startswith(
        "Added **Retrieval-Augmented Generation** in this server's glossary: "
    ), worded
    assert "under" not in worded["content"], worded


# -- 7. backup / restore with a URL PostgreSQL's clients cannot use; a host list all refusing --

SECRET = "Pw0rdXy7"


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        (f"postgresql://bot:{SECRET}@[::1:5432/glossary", "its host part does not read"),
        (f"postgresql://bot:{SECRET}@db1:5432,[db2/glossary", "its host part does not read"),
        (f"postgresql://bot:{SECRET}@x@db1/glossary", "percent-encode"),
        (f"postgresql://bot:{SECRET}@db1:99999/glossary", "its port is not a number"),
    ],
)
@pytest.mark.parametrize("command", ["backup", "restore"])
def test_backup_and_restore_name_what_is_wrong_with_the_url(
    tmp_path: Path, command: str, url: str, problem: str
) -> None:
    """Failed before (review71's note): pg_dump's or pg_restore's advice, quoting the URL as
    `postgresql://…` and leaving the operator to find why. Now one line naming the setting and
    the problem, the password never shown."""
    status, said = glossary_bot_here(CLI_ENV, tmp_path, command, "out.dump", "--db", url)
    assert status == 1, said
    assert len(said.strip().splitlines()) == 1, said
    assert said.startswith("glossary-bot: error: --db postgresql://"), said
    assert problem in said, said
    assert "pg_dump" not in said, said
    assert "pg_restore" not in said, said
    assert SECRET not in said, said


@pytest.mark.skipif(not TEST_DATABASE_URL, reason="needs TEST_DATABASE_URL")
async def test_a_host_list_none_of_whose_hosts_answers_names_each_hosts_error(
    tmp_path: Path,
) -> None:
    """Failed before (review71's note): only the last host's error, "[Errno 111] Connect call
    failed ('127.0.0.1', 12)". Now each host's, short, the first five named and the rest
    counted; one line, no password. The real PostgreSQL gives the credentials (a host list
    whose live server is reached still opens: test_review71)."""
    parts = urlsplit(TEST_DATABASE_URL)
    auth = parts.netloc.rpartition("@")[0]
    hosts = ["127.0.0.1:10", "nosuchhost.invalid:5432", *(f"127.0.0.1:{p}" for p in range(20, 26))]
    dead = parts._replace(netloc=f"{auth}@{','.join(hosts)}").geturl()
    status, said = await asyncio.to_thread(
        glossary_bot_here, CLI_ENV, tmp_path, "stats", "--db", dead
    )
    assert status == 1, said
    assert len(said.strip().splitlines()) == 1, said
    assert "no host of its list could be used (127.0.0.1:10: refused the connection; " in said
    assert "nosuchhost.invalid:5432: " in said, said
    assert "127.0.0.1:22: refused the connection; and 3 more hosts)" in said, said
    password = parts.password or ""
    assert not password or f":{password}@" not in said, said
