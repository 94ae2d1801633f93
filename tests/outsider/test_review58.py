"""review58 (tests/outsider/PLAN.md, "Attacks on review56, review57 and versions51 (review58)"):
each fix's test failing on main 63d71e5 first."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord_app import alias_cache
from bot.discord_app.app import GlossaryBot
from bot.discord_app.replies import TERMS_UNREAD
from bot.storage import Store
from bot.term_storage import accept_as_operator
from tests.discord_app.helpers import is_ephemeral
from tests.discord_app.term_commands import add_term

from .conftest import Scene
from .test_outsider49 import suggested

# Capitals whose look-alike is another letter than their small letter's (UTS #39 maps a Cyrillic
# "М" to "M", its small "м" to another; a Greek "Η" to "H", its small "η" to an "n").
CYRILLIC_EM, GREEK_ETA, GREEK_IOTA = "\u041c", "\u0397", "\u0399"


async def test_a_waiting_name_in_look_alike_capitals_is_accepted_with_the_term(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """left53's `waiting_named` keyed a waiting name by its look-alike key after folding its
    case (`compact`), which UTS #39 reads otherwise for many capitals: Alice's "ZUМBLAX" (a
    Cyrillic М) and Bob's "ΗYPERZORB" (a Greek Η), which no reader tells from "ZUMBLAX" and
    "HYPERZORB" (a moderator's `/term add` of them is refused: "looks like"), stayed waiting
    after a moderator added Zumblax with the other name Hyperzorb. No moderator could accept
    them (the name is taken). Now both are accepted with the term, each member told."""
    await suggested(scene, scene.alice, f"ZU{CYRILLIC_EM}BLAX")
    await suggested(scene, scene.bob, f"{GREEK_ETA}YPERZORB")
    term = {
        "title": "Zumblax",
        "definition": "The made-up zumblax of this test server.",
        "boundary": "",
        "other_names": "Hyperzorb",
        "related": "",
    }
    answer = await add_term(scene, term)
    assert answer["content"].startswith("Added **Zumblax**"), answer
    said = str(answer["content"])
    assert "Also accepted 2 suggestions of those names; their members were told" in said, said
    assert await store.open_suggestions(scene.guild.id) == []


async def test_the_command_line_accepts_waiting_names_in_look_alike_capitals_too(
    tmp_path: Path,
) -> None:
    """The same through the command line's imports (`accept_as_operator`): "RAМ" and "ΗTTP"
    (Cyrillic М, Greek Η) accepted with "ram" and "http"; "LΙME" (a Greek Ι, read alike once
    folded to its small ι) was already, and stays; "ΜP" beside "µP" is another name."""
    store = await Store.open(tmp_path / "g.db", flush_interval=None)
    try:
        for user, name in enumerate(
            [f"RA{CYRILLIC_EM}", f"{GREEK_ETA}TTP", f"L{GREEK_IOTA}ME", "MP"], start=41
        ):
            await store.add_suggestion(5, user, name, "a member's words")
        by_name = {"ram": "ram-id", "http": "http-id", "lime": "lime-id", "\u03bcp": "micro"}
        accepted, stopped, names = await accept_as_operator(store, 5, by_name)
        assert (accepted, stopped) == (3, False)
        assert names == {"ra\u043c", "\u03b7ttp", "l\u03b9me"}
        assert [s.title for s in await store.open_suggestions(5, limit=10)] == ["MP"]
    finally:
        await store.close()


@pytest.fixture
def indexing_held(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Every server's indexing (its thread) waits until the event is set: a server read again
    whose indexing outlasts the answer's wait, as a big server's does on a loaded machine."""
    go = threading.Event()
    real = alias_cache.compile_local

    def held(*args: Any, **kwargs: Any) -> Any:
        go.wait()
        return real(*args, **kwargs)

    monkeypatch.setattr(alias_cache, "compile_local", held)
    try:
        yield go
    finally:
        go.set()


@pytest.mark.parametrize("command", ["term edit", "term remove", "alias add"])
async def test_a_term_picked_while_its_server_is_read_again_is_not_said_missing(
    scene: Scene, bot: GlossaryBot, command: str, indexing_held: threading.Event
) -> None:
    """A server let go (SERVER_CACHE_MB's least recently asked, or idle 15 minutes) is read
    again at its next request; `/term edit` and `/term remove` (which answer at once: a form
    cannot follow a deferral) took the bundled glossary that answers meanwhile for the server's
    terms and told the moderator "This server has no term “Zorblax”" of a term it has
    (`/alias add`: "I could not find the term"). Now they say its terms could not be read yet;
    once read, the term is found."""
    options = {"term": "zorblax"} | ({"alias": "zorbo"} if command == "alias add" else {})
    indexing_held.set()
    assert (await add_term(scene))["content"].startswith("Added **Zorblax**")
    bot.state.servers.forget(scene.guild.id)  # what letting it go does
    indexing_held.clear()

    asked = await scene.fake.slash(scene.moderator, command, options, channel=scene.channel)
    said = await asked.final_message()
    content = str(said["content"])
    assert "has no term" not in content, content
    assert "could not find" not in content, content
    assert content == TERMS_UNREAD, content
    assert is_ephemeral(said)

    indexing_held.set()
    await bot.state.servers.local(scene.guild.id, patient=True)
    again = await scene.fake.slash(scene.moderator, command, options, channel=scene.channel)
    answer = str(await again.final_message() if command == "alias add" else await again.response())
    assert "has no term" not in answer, answer
    assert "could not" not in answer, answer
