"""outsider50: outsider round 33 (PLAN.md, "Outsider round 33 (outsider50)"). The real bot on
the fake Discord, as members and moderators of a server in its first months drive it."""

from __future__ import annotations

import json
import logging
import random
from pathlib import Path

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.moderators import NO_LONGER_ALLOWED
from bot.discord_app.cogs.stats import NOT_ALLOWED
from bot.glossary import load_glossary
from bot.glossary.interchange import parse_import
from bot.glossary.server_terms import text_size
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons, define, embed_of, is_ephemeral, selects
from tests.discord_app.term_commands import add_term, open_add, run_import
from tests.discord_app.test_alias_permissions import pick_the_miss
from tests.discord_app.test_aliases import add as add_alias
from tests.fake_discord.command_permissions import override
from tests.resilience.botproc import BotProcess
from tests.resilience.helpers import warned

from .conftest import Scene
from .test_outsider49 import SUGGESTED, reject_next, suggested


async def test_dms_discord_refuses_are_said_as_such_without_a_stand_in_refusal(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """O4: the fake delivered the bot's DMs to anyone, so tests stood in Discord's refusal with
    an injected 403. Now it refuses as Discord does (403, 50007) a member whose DMs are closed
    and one who left and shares no server with the bot; a member who left one server but shares
    another is still reached. The moderator's answer says which, and the decision stands."""
    fake = scene.fake
    scene.bob.dms_closed = True
    await suggested(scene, scene.bob, "zorblax")
    said = await reject_next(scene)
    assert "Rejected the suggestion; the member could not be told (DMs closed)." in said, said
    assert [user for user, _ in fake.refused_dms] == [scene.bob.id]

    scene.bob.dms_closed = False
    await suggested(scene, scene.alice, "blorptex")
    del scene.guild.members[scene.alice.id]  # left; still in Elsewhere with the bot
    said = await reject_next(scene)
    assert "Rejected the suggestion" in said, said
    assert "could not be told" not in said, said
    told = await fake.wait_for_channel_message(fake.dm_channel(scene.alice))
    assert "blorptex" in told["content"], told

    await suggested(scene, scene.admin, "quuxnet")
    del scene.guild.members[scene.admin.id]  # left: no server in common with the bot
    said = await reject_next(scene)
    assert "the member could not be told (no longer in this server)." in said, said
    assert [user for user, _ in fake.refused_dms] == [scene.bob.id, scene.admin.id]
    assert await store.open_suggestions(scene.guild.id) == []


async def test_a_server_renamed_while_the_bot_runs_keeps_everything_and_is_named_anew(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """O1: an admin renames the server (GUILD_UPDATE, which the fake now sends). Its terms,
    aliases and suggestions are kept by its id; a member told about their suggestion afterwards
    reads the server's new name, not the one it had when the bot connected."""
    fake = scene.fake
    assert (await add_term(scene))["content"].startswith("Added **Zorblax**")
    assert "now opens **KV Cache**" in await add_alias(
        scene, scene.moderator, "kv stash", "kv-cache"
    )
    await suggested(scene, scene.bob, "quuxnet")
    old_name = scene.guild.name
    scene.guild.name = "Reading Group"
    await fake.update_guild(scene.guild)
    for asked, title in (("zbx", "Zorblax"), ("kv stash", "KV Cache")):
        _, card = await define(fake, scene.alice, asked, scene.channel)
        assert embed_of(card)["title"] == title, card
    said = await reject_next(scene)
    assert "could not be told" not in said, said
    told = (await fake.wait_for_channel_message(fake.dm_channel(scene.bob)))["content"]
    assert "“quuxnet” in Reading Group was not added" in told, told
    assert old_name not in told
    assert bot.get_guild(scene.guild.id).name == "Reading Group"  # type: ignore[union-attr]


async def test_a_term_named_as_another_servers_alias_stays_in_its_server(
    scene: Scene, bot: GlossaryBot
) -> None:
    """O8: Glossary Lab writes a term "Zorblax" (other names zbx, nightly rerank); Elsewhere
    makes "zorblax" and "zbx" aliases of KV Cache. Each server opens its own card by each name,
    in `/define`, autocomplete and Explain terms; a DM opens neither server's. A name one
    server has is no reason to refuse a suggestion in the other: only its own names are."""
    fake = scene.fake
    assert (await add_term(scene))["content"].startswith("Added **Zorblax**")
    for alias in ("zorblax", "zbx"):
        handle = await fake.slash(
            scene.other_moderator,
            "alias add",
            {"alias": alias, "term": "kv-cache"},
            channel=scene.other_channel,
        )
        said = (await handle.final_message())["content"]
        assert said == f"Added: “{alias}” now opens **KV Cache** in this server.", said
    for asked in ("zorblax", "zbx"):
        _, here = await define(fake, scene.alice, asked, scene.channel)
        assert embed_of(here)["title"] == "Zorblax", here
        _, there = await define(fake, scene.alice, asked, scene.other_channel)
        assert embed_of(there)["title"] == "KV Cache", there
        _, in_dm = await define(fake, scene.alice, asked, fake.dm_channel(scene.alice))
        assert is_ephemeral(in_dm), in_dm
        assert in_dm["content"].startswith("No entry"), in_dm
    for channel, shown in ((scene.channel, "Zorblax"), (scene.other_channel, None)):
        completing = await fake.autocomplete(
            scene.alice, "define", {"term": "zorbl"}, focused="term", channel=channel
        )
        names = [c["name"] for c in await completing.choices()]
        assert (shown in names) if shown else not any("Zorblax" in n for n in names), names
    for channel, title in ((scene.channel, "Zorblax"), (scene.other_channel, "KV Cache")):
        said = await fake.user_message(scene.alice, channel, "our zorblax ran late again")
        explained = await fake.message_command(scene.alice, "Explain terms", said)
        listed = str(embed_of(await explained.final_message()))
        assert title in listed, listed
        assert ({"Zorblax", "KV Cache"} - {title}).pop() not in listed, listed
    asked = await fake.slash(scene.alice, "suggest", {"term": "zbx"}, channel=scene.channel)
    said = (await asked.final_message())["content"]
    assert said.startswith("“zbx” is already in this server's glossary: **Zorblax**"), said
    fresh = fake.add_user("fresh")
    scene.other_guild.add_member(fresh)
    asked = await fake.slash(
        fresh, "suggest", {"term": "nightly rerank"}, channel=scene.other_channel
    )
    assert (await asked.response())["type"] == 9  # the form: a name of Glossary Lab's alone


# Fifty names no entry has, none another's other number or near-spelling.
_SYLLABLES = ("ka", "lo", "mi", "nu", "pe", "ri", "tu", "vo")
FIFTY = [f"Qx{a}{b}" for a in _SYLLABLES for b in _SYLLABLES if a != b][:50]
WAITED_OUT = 5  # accepts under the 0.5 s bucket; the rest spend one of 0.01 s


async def test_fifty_suggestions_accepted_in_a_row_under_rate_limits_lose_nothing(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """O3: fifty members each suggest a term (the server's most open at once) and a moderator
    accepts them one after the other, each answer showing the next, while Discord rate-limits
    opening a DM (the fake's per-route bucket, with Discord's headers and 429; the number is
    this test's, Discord publishes none). Every suggestion is accepted once, every term written
    once, every member told exactly once, and no answer claims more. review57: the buckets this
    test also set for posting in a DM, looking a member up and the follow-ups were never spent
    (one post per DM channel, a follow-up or two per interaction token, members cached), so
    they are gone; the one that bites is asserted by route, and discord.py waiting on its
    headers (no 429 served) is asserted, as the docstring of outsider50 claimed. trim52: the
    first five accepts meet a bucket of one DM a 0.5 s (an accept's round trip is shorter:
    discord.py waits), the other 45 one that resets in 0.01 s, still spent by each (the 45
    waits of 0.5 s more were 22 of the test's 27 s and proved nothing the first five do not)."""
    fake = scene.fake
    fake.settle_before_actions = False  # ~200 actions: past discord.py's gateway send limit
    members = []
    for name in FIFTY:
        member = fake.add_user(f"member_{name.lower()}")
        scene.guild.add_member(member)
        members.append(member)
        await suggested(scene, member, name)
    fake.rate_limit("POST", "/users/@me/channels", limit=1, per=0.5)

    review = await fake.slash(
        scene.moderator, "term review", {"category": "Fundamentals"}, channel=scene.channel
    )
    shown = await review.final_message()
    answers = []
    for n, _ in enumerate(FIFTY):
        if n == WAITED_OUT:
            fake.rate_limit("POST", "/users/@me/channels", limit=1, per=0.01)
        accept = await fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
        assert (await accept.response())["type"] == 9
        saved = await fake.submit_modal(scene.moderator, accept, {})
        shown = await saved.final_message()
        answers.append(str(shown["content"]))
    for answer in answers:
        assert "Accepted the suggestion; the member was told privately." in answer, answer
        assert answer.count("Accepted") == 1, answer
    assert answers[-1].endswith("No more suggestions are waiting."), answers[-1]
    assert await store.open_suggestions(scene.guild.id) == []
    terms = await read_terms(store, scene.guild.id)
    assert sorted(t.title for t in terms) == sorted(FIFTY)
    for member, name in zip(members, FIFTY, strict=True):
        dms = fake.store.channel_messages(fake.dm_channel(member).id)
        assert [name in m["content"] for m in dms] == [True], (name, dms)
    assert fake.refused_dms == []
    # Every DM opened spent its bucket, and discord.py waited out each before the next.
    assert [spent.path for spent in fake.rate_limits.spent] == ["/users/@me/channels"] * 50
    assert fake.rate_limits.refused == []


async def test_the_moderator_role_renamed_keeps_its_grant_and_deleted_takes_it(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """O2: admins gave a "Glossary team" role (no Manage Server) `/alias` and `/stats` in
    Integrations. Renamed ("Glossary crew"), it keeps them: grants name the role's id. Deleted
    (GUILD_ROLE_DELETE, which the fake now sends, the role gone from its members), its former
    holder is refused by Discord for `/alias`, and by the bot for a `/stats` menu and a `/term
    add` form opened before, and nothing is written."""
    fake = scene.fake
    team = scene.guild.add_role("Glossary team")
    helper = fake.add_user("hal")
    scene.guild.add_member(helper, roles=[team])
    for miss in ("kv chache", "kv cahce"):
        store.record_miss(scene.guild.id, miss)
    async with start_bot(store):
        for command in ("stats", "alias", "term"):
            await fake.set_command_permissions(scene.guild, command, [override(team, True)])
        team.name = "Glossary crew"
        await fake.update_role(team)
        assert (await pick_the_miss(scene, helper))["content"].startswith("Added")
        opened = await fake.slash(helper, "stats", channel=scene.channel)
        shown = await opened.final_message()
        [menu] = selects(shown)
        form = await open_add(scene, helper, category="Fundamentals")
        await fake.delete_role(team)
        assert (await fake.slash(helper, "alias list", channel=scene.channel)).refused
        picked = await fake.select(helper, shown, menu["custom_id"], [menu["options"][0]["value"]])
        assert (await picked.final_message())["content"] == NOT_ALLOWED
        saved = await fake.submit_modal(helper, form, {"title": "Qxkalo", "definition": "Ours."})
        assert (await saved.final_message())["content"] == NO_LONGER_ALLOWED
        assert len(await store.list_aliases(scene.guild.id)) == 1  # the pick made before
        assert await read_terms(store, scene.guild.id) == []


async def test_a_dm_discord_will_not_let_the_bot_answer_is_not_logged_as_a_channel_permission(
    scene: Scene, bot: GlossaryBot
) -> None:
    """O6: a member left the bot's only server in common and writes in the DM they had with it,
    "what is rag". Discord refuses the bot's answer (403, 50007: it may not message a user it
    shares no server with, nor one who closed their DMs or blocked it). The log said "the bot
    may not post in channel … it needs View Channel and Send Messages there", a permission
    no DM has, and sent the operator to look for it. Now one INFO line says Discord refuses
    the bot's messages to that user, and why that may be: nothing for the operator to mend."""
    fake = scene.fake
    stranger = fake.add_user("stranger")  # in no server with the bot (any more)
    dm = fake.dm_channel(stranger)
    async with warned("direct message", level=logging.INFO) as said:
        await fake.user_message(stranger, dm, "what is rag")
    assert [user for user, _ in fake.refused_dms] == [stranger.id]
    lines = [r.getMessage() for r in said]
    assert not [line for line in lines if "may not post in" in line], lines
    [line] = [line for line in lines if "direct message" in line]
    assert f"cannot answer a direct message from user {stranger.id}" in line, line
    assert "error code 50007" in line, line
    assert "View Channel" not in line, line


async def test_accept_and_suggest_forms_open_across_a_restart_still_save(
    scene: Scene, start_bot: StartBot
) -> None:
    """O7: the bot restarts (an upgrade) while a moderator has an Accept… form open and a
    member a `/suggest` form. Submitted to the new bot, the Accept… form writes the term in the
    category `/term review` was given, accepts that suggestion and tells its member; the
    member's suggestion is queued with what they wrote."""
    fake = scene.fake
    async with start_bot(await Store.open(scene.db_path)):
        await suggested(scene, scene.bob, "Qxkalo")
        review = await fake.slash(
            scene.moderator, "term review", {"category": "Fundamentals"}, channel=scene.channel
        )
        shown = await review.final_message()
        accepting = await fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
        assert (await accepting.response())["type"] == 9
        suggesting = await fake.slash(
            scene.alice, "suggest", {"term": "Qxlomi"}, channel=scene.channel
        )
        assert (await suggesting.response())["type"] == 9
    store = await Store.open(scene.db_path)
    async with start_bot(store):  # a new bot: nothing of the first in memory
        saved = await fake.submit_modal(scene.moderator, accepting, {})
        said = str((await saved.final_message())["content"])
        assert "Accepted the suggestion; the member was told privately." in said, said
        told = await fake.wait_for_channel_message(fake.dm_channel(scene.bob))
        assert "Qxkalo" in told["content"], told
        sent = await fake.submit_modal(scene.alice, suggesting, SUGGESTED)
        assert (await sent.final_message())["content"].startswith("Thanks!")
        [term] = await read_terms(store, scene.guild.id)
        assert (term.title, term.category) == ("Qxkalo", "Fundamentals")
        [waiting] = await store.open_suggestions(scene.guild.id)
        assert (waiting.title, waiting.user_id) == ("Qxlomi", scene.alice.id)


_FILLER = [
    "ledger",
    "shipment",
    "rota",
    "badge",
    "console",
    "firmware",
    "pallet",
    "roster",
    "quota",
    "invoice",
    "sprint",
    "dock",
    "ticket",
    "beacon",
    "relay",
    "cargo",
    "crate",
    "shift",
    "vault",
    "forge",
    "signal",
    "ember",
    "harbor",
    "lantern",
    "quarry",
    "meadow",
    "orbit",
    "prism",
    "ridge",
    "summit",
    "tundra",
    "valley",
    "willow",
    "zenith",
    "anchor",
    "bramble",
]


def _words(rng: random.Random, length: int, head: str = "") -> str:
    """`head` then filler words, cut to exactly `length` characters (ending in a letter)."""
    text = head
    while len(text) < length + 20:
        text += " " + rng.choice(_FILLER)
    return text[:length].rstrip() + "x" * (length - len(text[:length].rstrip()))


def _longest_fields_file(terms: int) -> bytes:
    """Curated TOML of `terms` terms whose fields are each as long as the form lets them be:
    title 256, definition 4,000, what it is not 1,024, other names (100 each, the most a name
    may have) and related terms near 4,000 as the form lists them."""
    rng = random.Random(50)
    titles = [_words(rng, 256, f"{FIFTY[n]} handbook") for n in range(terms)]
    entries = []
    for n, title in enumerate(titles):
        names = [_words(rng, 100, f"{FIFTY[n].lower()} name {m:02d}") for m in range(39)]
        related = [t for t in titles if t != title][:15]
        assert len(", ".join(names)) <= 4000
        assert len(", ".join(related)) <= 4000
        entries.append(
            "[[entries]]\n"
            f'title = "{title}"\n'
            'category = "Fundamentals"\n'
            f'definition = "{_words(rng, 3999, "The")}."\n'
            f'boundary = "{_words(rng, 1023, "Not")}."\n'
            f"aliases = {json.dumps(names)}\n"
            f"related = {json.dumps(related)}\n"
        )
    return "\n".join(entries).encode()


async def test_a_server_at_its_caps_exports_is_wiped_and_imports_its_file_back(
    scene: Scene, start_bot: StartBot
) -> None:
    """O5: a server at both its caps (here `MAX_SERVER_TERMS=12` and its text cap exactly
    filled), every field as long as the form allows, and aliases of its terms and of a bundled
    entry. A moderator exports, then imports another file by mistake (an import replaces: the
    server's terms are gone, and their aliases with them), then imports the export back: every
    term as it was, field by field; the aliases of its terms are named as gone by the mistaken
    import, the bundled entry's stays."""
    fake = scene.fake
    data = _longest_fields_file(12)
    parsed, problems = parse_import(data, "t.toml", load_glossary(), max_bytes=2**30)
    assert not [p for p in problems if p.severity == "error"], problems[:3]
    caps = (12, sum(text_size(t) for t in parsed))
    store = await Store.open(scene.db_path)
    async with start_bot(store, term_caps=caps):
        said = await run_import(scene, fake.add_attachment("ours.toml", data))
        assert said.startswith("Imported: 12 added, 0 changed, 0 removed."), said[:300]
        before = await read_terms(store, scene.guild.id)
        first = before[0].aliases[0]
        for alias, term in (("qx team word", before[0].id), ("kv stash", "kv-cache")):
            assert "now opens" in await add_alias(scene, scene.moderator, alias, term)
        exported = await fake.slash(scene.moderator, "term export", {}, channel=scene.channel)
        message = await exported.final_message()
        assert "does not hold this server's 2 aliases" in message["content"], message
        file = fake.attachment_bytes(message["attachments"][0])

        mistake = (
            b'[[entries]]\ntitle = "Qxvoka"\ncategory = "Fundamentals"\ndefinition = "Oops."\n'
        )
        handle = await fake.slash(
            scene.moderator,
            "term import",
            {"file": fake.add_attachment("other.toml", mistake)},
            channel=scene.channel,
        )
        message = await handle.final_message()
        said = str(message["content"])
        assert said.startswith("Imported: 1 added, 0 changed, 12 removed."), said[:300]
        report = [fake.attachment_bytes(a).decode() for a in message.get("attachments", [])]
        assert "qx team word" in said + "".join(report), (said[-300:], report)
        said = await run_import(scene, fake.add_attachment("export.toml", file))
        assert said.startswith("Imported: 12 added, 0 changed, 1 removed."), said[:300]
        after = await read_terms(store, scene.guild.id)
        assert sorted(after, key=lambda t: t.id) == sorted(before, key=lambda t: t.id)
        keys = [a.key for a in await store.list_aliases(scene.guild.id)]
        assert keys == ["kv stash"], keys
        _, card = await define(fake, scene.alice, first, scene.channel)
        assert embed_of(card)["title"] == before[0].title


async def test_glossary_bot_run_meets_a_renamed_server_and_a_refused_dm(
    scene: Scene, tmp_path: Path
) -> None:
    """O1 and O6 as an operator runs it: `glossary-bot run` against the fake. The server is
    renamed (GUILD_UPDATE) and `/define` answers on; a DM Discord will not let the bot answer is
    one INFO line naming the user, and no permission is named."""
    fake = scene.fake
    async with BotProcess(fake, scene.db_path, cwd=tmp_path) as process:
        scene.guild.name = "Reading Group"
        await fake.update_guild(scene.guild)
        _, card = await define(fake, scene.alice, "kv cache", scene.channel)
        assert embed_of(card)["title"] == "KV Cache", card
        stranger = fake.add_user("stranger")
        await fake.user_message(stranger, fake.dm_channel(stranger), "what is rag")
        line = await process.wait_for_output(
            f"cannot answer a direct message from user {stranger.id}"
        )
        assert "error code 50007" in line, line
    assert "may not post in" not in process.output, process.output[-2000:]
    assert [user for user, _ in fake.refused_dms] == [stranger.id]
