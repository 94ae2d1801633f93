"""Hypothesis through the real handlers: whatever people type (empty, 6,000 characters, every
Unicode category, zero-width and right-to-left marks, markdown, code blocks, @everyone, user and
role mentions, SQL), the bot answers clearly, pings nobody, and stores nothing wrongly.

Each test keeps one bot for all its examples (hence the suppressed health check) and stays well
under discord.py's 110 gateway sends a minute that the fake's settle() costs per action.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot import limits
from bot.aliases import check_alias
from bot.discord_app.app import GlossaryBot
from bot.discord_app.errors import error_reply
from bot.glossary import Glossary
from bot.glossary.keys import normalize
from bot.storage import Store
from tests.discord_app.helpers import is_ephemeral
from tests.fake_discord import is_silent

from .conftest import Scene
from .helpers import unhurried

FUZZ = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,  # the same examples every run
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(autouse=True)
def _unhurried(scene: Scene) -> None:
    """What the bot answers to anything, not how fast: on a loaded machine a 6,000-character
    /define took 3.7 s and the fake refused it (10062) (see `unhurried`)."""
    unhurried(scene.fake)


# Placeholders replaced with the scene's own member, role and channel ids.
SPECIAL = [
    "",
    " ",
    "\u200b",
    "kv\u200bcache",
    "\u200bkv cache\u200b",
    "\u2060\ufeffrag\u200d",
    "\u202ekv cache\u202c",
    "\u200fRAG\u200f",
    "\u2067lora\u2069",
    "ذاكرة التخزين المؤقت",
    "מטמון kv",
    "**kv** __cache__",
    "~~lora~~ ||spoiler||",
    "> quote\n# heading\n- list",
    "[kv cache](https://example.com)",
    "```py\nprint('kv cache')\n```",
    "`kv cache`",
    "@everyone",
    "@here kv cache",
    "@everyone what is rag?",
    "{member}",
    "<@!{member}> lora",
    "{role} please",
    "<#{channel}>",
    "<@123456789012345678>",
    "<@&123456789012345678>",
    "'; DROP TABLE aliases; --",
    '" OR 1=1 --',
    "kv%' OR '1'='1",
    "%_\\",
    "NULL",
    "\x00kv\x00",
    "\r\n\t",
    "𝐤𝐯 𝐜𝐚𝐜𝐡𝐞",
    "ＫＶ　ｃａｃｈｅ",
    "KV ÇÅÇHÉ",
    "🦙🦙 llama",
]
ANY_CHARACTER = st.characters(
    exclude_categories=["Cs"]
)  # Discord's JSON carries no lone surrogates
PIECES = st.one_of(
    st.sampled_from(SPECIAL),
    st.text(ANY_CHARACTER, max_size=40),
    st.sampled_from(["kv cache", "rag", "lora", "attention", "moe", "quantization"]),
)
TEXT = st.one_of(
    st.lists(PIECES, max_size=6).map(" ".join),
    st.tuples(
        st.sampled_from(["x", "kv cache ", "@everyone ", "\u200b", "é", "<@1> "]), st.just(6000)
    ).map(lambda p: (p[0] * p[1])[: p[1]]),
    st.text(ANY_CHARACTER, min_size=500, max_size=6000),
)


F = TypeVar("F", bound=Callable[..., Any])
# Always tried, whatever else hypothesis draws.
EXAMPLES = [
    "",
    "x" * 6000,
    "@everyone what is rag?",
    "<@!{member}> {role} @here kv cache",
    "\u200bkv\u200bcache\u200b",
    "\u202ekv cache\u202c \u200fRAG\u200f",
    "```py\nprint('kv cache')\n```",
    "'; DROP TABLE aliases; --",
]


def with_examples(test: F) -> F:
    for text in EXAMPLES:
        test = example(text=text)(test)
    return test


def fill(text: str, scene: Scene) -> str:
    role = next(iter(scene.guild.roles.values()))
    return (
        text.replace("{member}", scene.bob.mention)
        .replace("{role}", f"<@&{role.id}>")
        .replace("{channel}", str(scene.channel.id))
    )


def check_quiet(scene: Scene) -> None:
    """Nothing Discord would refuse, nobody pinged, every message sent with mentions off."""
    fake = scene.fake
    assert fake.violations == [], fake.violation_report()
    for sent in fake.sent_messages:
        assert sent.pings == []
        assert is_silent(sent.allowed_mentions), sent.body


def check_clear(content: str) -> None:
    assert content.strip()
    assert not content.startswith(error_reply("")[:30]), content  # no "something went wrong"
    assert "@everyone" not in content
    assert "@here" not in content
    # A real member's or role's mention (a snowflake id) is shown as text, never as a mention.
    assert not re.search(r"<@[!&]?\d{17,20}>", content), content


async def check_stored(store: Store, glossary: Glossary, scope: int) -> None:
    """Misses are stored normalised and cut to length; lookups name real entries."""
    await store.flush()
    for miss in await store.top_misses(scope, None, 1000):
        assert miss.query
        assert len(miss.query) <= 100
        assert normalize(miss.query) == miss.query, miss.query
    for entry_id, _ in await store.top_terms(scope, None, 1000):
        assert entry_id in glossary


@FUZZ
@with_examples
@given(text=TEXT)
async def test_define(
    scene: Scene, bot: GlossaryBot, store: Store, glossary: Glossary, text: str
) -> None:
    fake = scene.fake
    # As much as Discord's client lets a member type in the box (its declared 1-100).
    term = fill(text, scene)[: limits.DEFINE_TERM]
    if not term:
        with pytest.raises(ValueError, match="length must be within"):
            await fake.slash(scene.alice, "define", {"term": term}, channel=scene.channel)
        return
    handle = await fake.slash(scene.alice, "define", {"term": term}, channel=scene.channel)
    message = await handle.final_message()
    if message["embeds"]:
        assert message["embeds"][0]["title"]
    else:
        check_clear(message["content"])
        if message["content"].startswith("No entry"):
            assert is_ephemeral(message)
    check_quiet(scene)
    await check_stored(store, glossary, scene.guild.id)


@FUZZ
@with_examples
@given(text=TEXT)
async def test_autocomplete(scene: Scene, bot: GlossaryBot, text: str) -> None:
    handle = await scene.fake.autocomplete(
        scene.alice, "define", {"term": fill(text, scene)}, focused="term", channel=scene.channel
    )
    choices = await handle.choices()  # the fake checks the 25 choices and 100 characters
    for choice in choices:
        assert choice["name"].strip()
    check_quiet(scene)


ALIAS_ANSWERS = re.compile(
    r"Added: “.+” now opens \*\*KV Cache\*\* in this server\.|"
    r"“.+” already opens \*\*KV Cache\*\*: nothing to change\.|"
    r"“.+” (already names|is already a name of) \*\*.+\*\*.*|"
    r"An alias (can be at most|cannot contain) .+|"
    r"That alias is empty once punctuation and spacing are removed\.",
    re.S,
)


@FUZZ
@with_examples
@given(text=TEXT)
async def test_alias_add(
    scene: Scene, bot: GlossaryBot, store: Store, glossary: Glossary, text: str
) -> None:
    alias = fill(text, scene)[:200] or "x"  # Discord enforces the option's 1..200 characters
    handle = await scene.fake.slash(
        scene.moderator, "alias add", {"alias": alias, "term": "kv-cache"}, channel=scene.channel
    )
    message = await handle.final_message()
    assert is_ephemeral(message)
    assert ALIAS_ANSWERS.fullmatch(message["content"]), message["content"]
    check_clear(message["content"])
    check_quiet(scene)
    # Whatever was stored passes the alias rules and is stored under its normalised key.
    for record in await store.list_aliases(scene.guild.id):
        assert record.key == normalize(record.text)
        assert check_alias(record.text, "kv-cache", bot.state.index)[0] == record.key
        assert record.entry_id == "kv-cache"
    assert await store.list_aliases(scene.other_guild.id) == []


@FUZZ
@with_examples
@given(text=TEXT)
async def test_mentions(
    scene: Scene, bot: GlossaryBot, store: Store, glossary: Glossary, text: str
) -> None:
    fake = scene.fake
    content = f"{fake.bot.mention} {fill(text, scene)}"[:2000]  # Discord's message limit
    await fake.user_message(scene.alice, scene.channel, content)
    reply = await fake.wait_for_channel_message(scene.channel)
    if reply["embeds"]:
        assert reply["embeds"][0]["title"]
    else:
        check_clear(reply["content"])
    check_quiet(scene)
    await check_stored(store, glossary, scene.guild.id)


@FUZZ
@with_examples
@given(text=TEXT)
async def test_explain_terms(scene: Scene, bot: GlossaryBot, text: str) -> None:
    fake = scene.fake
    said = await fake.user_message(scene.bob, scene.channel, fill(text, scene)[:4000])
    handle = await fake.message_command(scene.alice, "Explain terms", said)
    message = await handle.final_message()
    assert is_ephemeral(message)
    if message["embeds"]:
        assert "glossary term" in message["embeds"][0]["title"]
    else:
        assert message["content"] == "I found no glossary terms in that message."
    check_quiet(scene)
