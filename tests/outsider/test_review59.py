"""review59 (tests/outsider/PLAN.md, "Attacks on outsider51 and review58 (review59)"): each
fix's test failing on main 0dc403b first."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest

from bot.discord_app import alias_cache
from bot.discord_app.app import GlossaryBot
from bot.discord_app.replies import TERMS_UNREAD
from bot.glossary.lookalikes import LookAlikes, letters_alike, same_name
from bot.glossary.server_terms import check_caps, text_size
from bot.search.semantic.term_vectors import TermVectors
from bot.storage import Store
from bot.term_storage import TermChange, change_terms, read_terms
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons, define, embed_of, is_ephemeral
from tests.discord_app.term_commands import add_term, open_edit, run_import, submit
from tests.discord_app.test_aliases import add as add_alias

from .conftest import Scene
from .test_outsider49 import _term
from .test_outsider51 import THREE_TERMS
from .test_review58 import indexing_held  # noqa: F401  (the fixture)
from .test_scale50 import terms


class Counted(TermVectors):
    """The term-vector cache, counting the texts it embeds (one embedding thread: no race)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.embedded_texts: list[str] = []

    def embed(self, texts: Sequence[str], in_use: Iterable[Iterable[bytes]] = ()) -> int:
        self.embedded_texts += self.missing(texts)
        return super().embed(texts, in_use)


async def test_a_change_of_one_term_embeds_its_texts_alone_past_the_cache(
    scene: Scene, bot: GlossaryBot, tmp_path: Path
) -> None:
    """outsider51 kept a server's meaning stage across batches (`with_vectors` keeps the rows
    it holds), but a change of any term compiles the server anew, and the new stage was built
    from the cache alone: a server whose texts the cache had partly let go of (more than it
    keeps, or a dozen full servers embedding after a move) embedded every one of them again at
    each edit, a removal included, holding the one embedding thread. Here the cache keeps 2 of
    the 6 texts: an edit embeds the edited term's 2 texts alone, a removal none, and the stage
    holds exactly the texts of the terms there are (an edited term's old texts dropped)."""
    shared = bot.state.servers._vectors()
    assert shared is not None
    vectors = Counted(shared.encoder, tmp_path, kept=2)
    bot.state.servers._term_vectors = vectors
    scope = scene.guild.id
    said = await run_import(scene, scene.fake.add_attachment("ours.toml", THREE_TERMS))
    assert said.startswith("Imported: 3 added"), said
    assert (await bot.state.servers.embedded(scope)).complete

    vectors.embedded_texts.clear()
    old = "kept for audits."
    edited = THREE_TERMS.replace(old.encode(), b"kept for the auditors each quarter.")
    said = await run_import(scene, scene.fake.add_attachment("ours.toml", edited))
    assert said.startswith("Imported: 0 added, 1 changed"), said
    local = await bot.state.servers.embedded(scope)
    assert local.complete
    assert len(vectors.embedded_texts) == 2, vectors.embedded_texts  # before: 4 or more
    assert all("auditors each quarter" in text for text in vectors.embedded_texts)
    assert set(local.row_keys) == {vectors.key(text) for _, text in local.texts}
    assert not any(old in text for _, text in local.texts)

    vectors.embedded_texts.clear()
    two = edited[: edited.rindex(b"[[entries]]")]
    said = await run_import(scene, scene.fake.add_attachment("ours.toml", two))
    assert said.startswith("Imported: 0 added, 0 changed, 1 removed"), said
    local = await bot.state.servers.embedded(scope)
    assert local.complete
    assert local.embedded == len(local.texts) == 4
    assert vectors.embedded_texts == []  # before: 2


@pytest.mark.parametrize(
    "view", ["card button", "alias list of the term", "alias list", "stats", "alias remove box"]
)
async def test_a_server_read_again_does_not_show_its_terms_gone(
    scene: Scene,
    bot: GlossaryBot,
    view: str,
    indexing_held: threading.Event,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """review58 made `/term edit`, `/term remove` and `/alias add` say a server's terms are not
    read yet (TERMS_UNREAD) while a server let go is read again (SERVER_CACHE_MB, idle, a
    restart); the other views of its terms still took the bundled glossary answering meanwhile
    for the server's: a card's button to one of its terms said "That entry is no longer in the
    glossary.", `/alias list zorblax` "There is no term", `/alias list` each alias of its terms
    "(no longer in the glossary)", and so did `/alias remove`'s box; `/stats` its most looked
    up term "blorptex (removed)" and "0 own terms". Now the first three say the terms could not
    be read yet, the box names the term's id, and `/stats` (deferred) waits for them as a
    deferred `/define` does, and marks nothing removed if they are still not read."""
    fake = scene.fake
    indexing_held.set()
    assert (await add_term(scene, _term("Zorblax")))["content"].startswith("Added")
    assert (await add_term(scene, _term("Blorptex", related="Zorblax")))["content"].startswith(
        "Added"
    )
    added = await add_alias(scene, scene.moderator, "qwzorb", "zorblax")
    assert added.startswith("Added"), added
    _, card = await define(fake, scene.alice, "Blorptex", scene.channel)
    opens = buttons(card)["Zorblax"]
    bot.state.servers.forget(scene.guild.id)  # what letting it go does
    indexing_held.clear()
    monkeypatch.setattr(alias_cache, "INDEX_WAIT", 0.0)  # /stats's wait: the indexing is held

    if view == "alias remove box":
        picker = await fake.autocomplete(
            scene.moderator, "alias remove", {"alias": "qw"}, focused="alias", channel=scene.channel
        )
        names = [c["name"] for c in await picker.choices()]
        assert names == ["qwzorb → zorblax"], names  # before: "… (no longer in the glossary)"
        return
    if view == "card button":
        said = await (await fake.click(scene.bob, card, opens)).final_message()
    elif view == "stats":
        said = await (
            await fake.slash(scene.moderator, "stats", {}, channel=scene.channel)
        ).final_message()
    else:
        options = {"term": "zorblax"} if view == "alias list of the term" else {}
        asked = await fake.slash(scene.moderator, "alias list", options, channel=scene.channel)
        said = await asked.final_message()
    shown = str(said["content"]) + str(said.get("embeds"))
    assert "no longer in the glossary" not in shown, said
    assert "There is no term" not in shown, said
    assert "(removed)" not in shown, said
    if view == "stats":
        listed = {f["name"]: f["value"] for f in embed_of(said)["fields"]}
        assert listed["Most looked up"] == "1. blorptex: 1", said  # by its id, while unread
        assert listed["This server's glossary"] == "own terms not read yet", said  # not "0"
    else:
        assert said["content"] == TERMS_UNREAD, said
    assert is_ephemeral(said)


async def test_a_server_past_its_text_cap_can_still_mend_its_terms_and_import_its_export(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """outsider51 counts a list with ", " between its items: a server stored within its text
    cap before may be a little past it now (as after an operator lowers the cap). Every write
    that left it past the cap was refused, "with this change" though the change added
    nothing: a typo mended, a definition shortened, its own export imported back. Now a write
    that takes it no further past the cap is taken; one that grows it is still refused."""
    guild = scene.guild.id
    await change_terms(store, guild, lambda *_: (TermChange(put=terms("Zorbic", 3)), None), 1)
    size = sum(text_size(t) for t in await read_terms(store, guild))
    async with start_bot(store, term_caps=(10, size - 8)):
        opened = await open_edit(scene, scene.moderator, "zorbic-1")
        mended = {"definition": "Our zorbic job no. 1."}  # 3 bytes shorter
        answer = await submit(scene, scene.moderator, opened, mended)
        assert answer["content"].startswith("Saved **Zorbic Quux 1**"), answer
        opened = await open_edit(scene, scene.moderator, "zorbic-2")
        grown = {"definition": "Our zorbic job number 2, and a few more words."}
        answer = await submit(scene, scene.moderator, opened, grown)
        assert "can hold at most" in answer["content"], answer  # grown: refused, as before

        exported = await scene.fake.slash(scene.moderator, "term export", {}, channel=scene.channel)
        data = scene.fake.attachment_bytes((await exported.final_message())["attachments"][0])
        said = await run_import(scene, scene.fake.add_attachment("terms.toml", data))
        assert said.startswith("Nothing changed"), said
        definitions = [t.definition for t in await read_terms(store, guild)]
        assert definitions == [
            "Our zorbic job number 0.",
            "Our zorbic job no. 1.",
            "Our zorbic job number 2.",
        ]


def test_a_write_that_takes_a_server_no_further_past_a_cap_is_taken() -> None:
    """`check_caps` with the server's terms before the write: past a cap already, a write that
    keeps or lowers its count or its text is taken; one that adds to either is refused."""
    now = terms("Zorbic", 4)
    size = sum(text_size(t) for t in now)
    assert check_caps(now, max_terms=3, max_text_bytes=size - 1, before=now) == []
    fewer = now[:3]
    assert check_caps(fewer, max_terms=2, max_text_bytes=size - 1, before=now) == []
    more = (*now, *terms("Blorp", 1))
    [count] = check_caps(more, max_terms=3, max_text_bytes=10**6, before=now)
    assert "at most 3 terms" in count.message
    longer = (*now[:3], now[3].model_copy(update={"definition": now[3].definition + "!"}))
    [text] = check_caps(longer, max_terms=4, max_text_bytes=size - 1, before=now)
    assert f"{size + 1:,} bytes with this change" in text.message
    assert len(check_caps(more, max_terms=3, max_text_bytes=size - 1)) == 2  # no `before`


@pytest.mark.parametrize(
    ("name", "held"),
    [
        ("T\u041eKENIZATION", "Tokenization"),  # a Cyrillic О in capitals with an I
        ("\u0415MBEDDING", "embedding"),  # a Cyrillic Е
        ("F\u0406NE-TUNING", "Fine-Tuning"),  # a Cyrillic І
        ("m\u0456t", "MIT"),  # a Cyrillic і beside an acronym in capitals
    ],
)
def test_names_in_capitals_with_an_i_are_look_alikes_too(name: str, held: str) -> None:
    """UTS #39 reads a capital I as "l" and a small i as "i": `like` and `same_name` keyed
    each name as written only, so a name in capitals with an I, a look-alike letter in it
    ("TОKENIZATION", a Cyrillic О), was another name than "Tokenization", and a moderator
    could add it as a term or an alias of another card (its small-letter spelling was
    refused). `letters_alike` (review58) already read both; now all three read a name as
    written and case-folded, on both sides."""
    index: LookAlikes[str] = LookAlikes()
    index.add("held", [held])
    assert index.like(name) == ("held", held)
    assert same_name(name, held)
    assert same_name(held, name)
    assert letters_alike({held: "held"})(name) == "held"
    assert index.like(held.upper()) is None  # plain ASCII: another spelling, never alike


@pytest.mark.parametrize("title", ["T\u041eKENIZATION", "\u0415MBEDDING"])
async def test_a_term_in_capitals_looking_like_a_title_is_refused(
    scene: Scene, bot: GlossaryBot, title: str
) -> None:
    """The same through `/term add`: a term titled "TОKENIZATION" (a Cyrillic О) was added
    beside the glossary's Tokenization, two cards members cannot tell apart; now refused,
    naming it (its small-letter spelling "tоkenization" always was)."""
    answer = await add_term(scene, _term(title))
    assert "looks like" in answer["content"], answer
