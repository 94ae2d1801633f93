"""/term log through the fake: a server's term changes and decisions on suggestions, newest first,
fields before and after, stored text escaped, paged by buttons that work after a restart."""

from __future__ import annotations

import re

from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from bot.term_storage import TermChange, change_terms

from .conftest import Scene, StartBot
from .helpers import buttons, embed_of, is_ephemeral

HOSTILE = "@everyone <@&1> **bold** ||spoiler|| <t:0:R> [link](https://example.com) `code`"
ENTRY_START = re.compile(r"^<t:\d+:f> ", re.M)


def term(n: int, definition: str) -> ServerTerm:
    return ServerTerm(
        id=f"t{n}", title=f"Term {n} {HOSTILE}", definition=definition, category="Fundamentals"
    )


async def write(store: Store, scope: int, actor: int, *terms: ServerTerm) -> None:
    await change_terms(store, scope, lambda *_: (TermChange(put=terms), None), actor)


async def test_a_long_log_pages_back_and_forth_across_a_restart(
    scene: Scene, start_bot: StartBot
) -> None:
    fake, mod = scene.fake, scene.moderator
    store = await Store.open(scene.db_path)
    for n in range(12):  # added, then edited with a long definition: 24 entries, long ones
        await write(store, scene.guild.id, mod.id, term(n, f"First words of term {n}."))
    for n in range(12):
        await write(store, scene.guild.id, mod.id, term(n, f"{HOSTILE} " + "long " * 700))
    await write(store, scene.other_guild.id, scene.other_moderator.id, term(99, "Elsewhere."))

    seen: list[str] = []
    async with start_bot(store):
        shown = await (await fake.slash(mod, "term log", {}, channel=scene.channel)).final_message()
        assert is_ephemeral(shown)
        assert set(buttons(shown)) == {"Older"}
        pages = [shown]
        first = embed_of(shown)["description"]
        assert first.startswith("<t:"), first
        assert f"<@{mod.id}> edited “Term 11 " in first
        assert "> **Definition**: ~~First words of term 11.~~ → " in first
        # The admin may not turn the moderator's pages.
        refused = await fake.click(scene.admin, shown, buttons(shown)["Older"])
        assert "Run `/term log`" in (await refused.final_message())["content"]
    async with start_bot(await Store.open(scene.db_path)):  # buttons carry their place
        while "Older" in buttons(pages[-1]):
            clicked = await fake.click(mod, pages[-1], buttons(pages[-1])["Older"])
            pages.append(await clicked.final_message())
            assert "Newest" in buttons(pages[-1])
        for page in pages:
            text = embed_of(page)["description"]
            assert len(text) <= 4096
            assert "@everyone" not in text.replace("@\u200beveryone", "")  # never a ping
            # Markup in stored text is shown as text (escaped), never rendered.
            assert not re.search(r"(?<!\\)<t:0:R>|(?<!\\)\|\|spoiler|(?<!\\)\*\*bold", text)
            seen += ENTRY_START.findall(text)
        assert len(pages) > 2
        assert len(seen) == 24  # every entry once, none of the other server's
        back = await fake.click(mod, pages[-1], buttons(pages[-1])["Newest"])
        assert embed_of(await back.final_message())["description"] == first


async def test_an_empty_log_says_so(scene: Scene, start_bot: StartBot) -> None:
    async with start_bot(await Store.open(scene.db_path)):
        shown = await (
            await scene.fake.slash(scene.moderator, "term log", {}, channel=scene.channel)
        ).final_message()
        assert embed_of(shown)["description"] == "Nothing has changed yet."
        assert buttons(shown) == {}
