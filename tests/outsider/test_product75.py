"""product75 (tests/outsider/PLAN.md, "product75"): the parts of its items tested without
Discord: a gone card's words when the database does not answer, one reading of a server's
names."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from bot.discord_app.state import BotState
from bot.glossary import Glossary
from bot.storage import StorageUnavailable, Store


class _Log:
    """A store whose term log read fails, or never ends."""

    on_writable_turned: Any = None

    def __init__(self, fails: bool) -> None:
        self.fails = fails
        self.asked = 0

    async def ever_a_term(self, scope: int, term_id: str) -> bool:
        self.asked += 1
        if self.fails:
            raise StorageUnavailable("the database is down")
        await asyncio.Event().wait()
        return True


async def test_a_gone_card_is_said_gone_while_the_term_log_cannot_be_read(
    glossary: Glossary,
) -> None:
    """A button to a card gone, pressed while the database fails or hangs: the answer is not
    held past a quarter of the read timeout, and says "this server's glossary" (the log could
    not say) unless this run bundled the id; no read for a bundled id, a DM, or none at all."""
    for fails in (True, False):
        log = _Log(fails)
        state = BotState(glossary, cast(Store, log), read_timeout=0.2)
        assert await state.gone_from(7, "zorbler-engine") == "this server's glossary"
        assert await state.gone_from(7, "kv-cache") == "the glossary"  # bundled in this run
        assert await state.gone_from(0, "zorbler-engine") == "the glossary"  # a DM
        # a forged menu value no server term's id could be: not read for
        for forged in ("zorb\x00", "z" * 61, "Zorb", "zorb--1a2b3c4d", "-", ""):
            assert await state.gone_from(7, forged) == "the glossary", forged
        assert log.asked == 1
    assert await BotState(glossary, None).gone_from(7, "zorbler-engine") == "the glossary"


def test_an_alias_read_by_its_core_grows_in_place_as_compiled() -> None:
    """`aliases import` grows one set line by line (`ServerAliases.add`): the rows mentions and
    prefixes read an alias's core by ("quuxer" of "the quuxer") come and go as compiling the
    set afresh would have them, in either order of an alias and one that is its core."""
    from bot.search.server_aliases import ServerAliases

    positions = {"rag": 0, "lora": 1, "dpo": 2}
    orders = [
        [("the quuxer", "rag"), ("quuxer", "lora")],
        [("quuxer", "lora"), ("the quuxer", "rag")],
        [("the quuxer", "rag"), ("a quuxer", "dpo"), ("zorb", "lora")],
        [("zorb", "lora"), ("what is blip", "dpo")],
    ]
    for lines in orders:
        grown = ServerAliases({}, positions)
        for alias, entry_id in lines:
            grown.add(alias, entry_id)
        afresh = ServerAliases(dict(lines), positions)
        for aliases in (grown, afresh):
            assert aliases.found_by == afresh.found_by, lines
            assert aliases.by_key == afresh.by_key, lines
            assert list(aliases.starting_with("")) == list(afresh.starting_with("")), lines
            assert aliases.first_words == afresh.first_words, lines
            assert len(aliases) == len(lines), lines
    assert ServerAliases(dict(orders[0]), positions).get("quuxer").entry == 1  # its own key
    assert ServerAliases(dict(orders[2]), positions).get("quuxer").text == "the quuxer"


def test_a_server_term_s_names_read_as_its_aliases_are() -> None:
    """One reading (`query.read_otherwise`) for a server's alias, title and other name: each
    is found by what search reads it as typed alone, as strongly as written; a data file's
    other name opening with an article stays a part, its other names are not read."""
    from bot.glossary.models import SERVER_SOURCE_KEY, Entry, SourceText
    from bot.search.names import NameKind, entry_names

    def entry(source: str, aliases: tuple[str, ...]) -> Entry:
        said = SourceText(source=source, local_id="z", title="Zorbler Engine", definition="Ours.")
        return Entry(
            id="z",
            title="Zorbler Engine",
            definition="Ours.",
            sources=(said,),
            category="Fundamentals",
            aliases=aliases,
        )

    server = entry(SERVER_SOURCE_KEY, ("the zorbler", "what is blip", "The ZE"))
    names = set(entry_names(server))
    assert {("zorbler", NameKind.ALIAS), ("blip", NameKind.ALIAS), ("ZE", NameKind.ALIAS)} <= names
    data = entry("test", ("the zorbler", "what is blip"))
    names = set(entry_names(data))
    assert ("zorbler", NameKind.PART) in names
    assert not any(name == "blip" for name, _ in names)
