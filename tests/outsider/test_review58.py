"""review58 (tests/outsider/PLAN.md, "Attacks on review56, review57 and versions51 (review58)"):
each fix's test failing on main 63d71e5 first."""

from __future__ import annotations

from pathlib import Path

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from bot.term_storage import accept_as_operator
from tests.discord_app.test_terms import add_term

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
