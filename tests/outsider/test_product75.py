"""product75 (tests/outsider/PLAN.md, "product75"): the parts of its items tested without
Discord: a gone card's words when the database does not answer, one reading of a server's
names, one home for a reference's checks."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from bot.discord_app.state import BotState
from bot.glossary import Glossary
from bot.glossary.server_terms import ServerTerm
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


def test_a_kept_reference_is_checked_once(
    glossary: Glossary, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Failed before: a reference stored before such were refused was checked twice for one
    warning, by `is_web_url` and again by `reference_problem` (`_kept_reference`, in an edit's
    check and in an import's). Now the problem found is what the warning says: one check."""
    from bot.glossary import check, server_terms
    from bot.glossary.server_terms import Candidate, TermDraft, check_candidates, check_draft

    asked: list[str] = []
    problem = check.reference_problem

    def counted(url: str) -> str | None:
        asked.append(url)
        return problem(url)

    monkeypatch.setattr(check, "reference_problem", counted)
    monkeypatch.setattr(server_terms, "reference_problem", counted, raising=False)
    stored = ServerTerm(
        id="zorb",
        title="Zorb",
        definition="A made-up zorb.",
        category="Fundamentals",
        reference="https://example.org:abc/page",
    )
    told = (
        "bad reference URL 'https://example.org:abc/page': its port is not a number from 0 to "
        "65535; kept as it was stored"
    )
    checked = check_draft(TermDraft.of(stored, glossary), glossary, [stored], editing="zorb")
    assert [p.message for p in checked.problems if p.field == "reference"] == [
        f"{told} (the form does not hold it), shown without its link: a file's reference in "
        "`/term import` replaces it."
    ]
    assert asked == [stored.reference]
    asked.clear()
    fields = stored.model_dump(exclude={"id", "related"})
    candidate = Candidate(
        fields=fields, related=[], label="Zorb", preferred_id="zorb", stored=stored
    )
    _, problems = check_candidates([candidate], glossary, [], replaced=[stored])
    assert [p.severity for p in problems if p.field == "reference"] == ["warning"], problems
    assert asked == [stored.reference]


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
