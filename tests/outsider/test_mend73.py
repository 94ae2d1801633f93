"""mend73: loose ends noticed by review73, outsider73 and calibmend73 (tests/outsider/PLAN.md,
its "mend73" section), through the fake Discord and the real discord.py client."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.helpers import buttons, define

from .conftest import Scene
from .test_left47 import moderator_answer

# -- 1. "A*": search drops the "*" and reads "a", a question's wording --


async def test_a_name_search_reads_as_framing_once_its_symbols_go_is_refused_saying_so(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """ "A*" (the A* search algorithm) as an alias: search reads it as "a" ("what is A*" is
    "what is a": no term asked), so it stays refused, as `/suggest` and the term form refuse it.
    Failed before: the reason said "“A*” reads as “a*”", which is not how search reads it."""
    said = await moderator_answer(scene, "alias add", {"alias": "A*", "term": "lora"})
    # shown as typed (product74): the "*" escaped, as Discord shows it
    assert "without its symbols, in any case (“A\\*” reads as “a”)" in said, said
    assert await store.aliases(scene.guild.id) == {}
    said = await moderator_answer(scene, "alias add", {"alias": "IT", "term": "lora"})
    assert "in any case (“IT” reads as “it”)" in said, said
    assert "without its symbols" not in said, said


# -- 2. a miss of a question's wording in Discord markup offers no suggestion --


async def test_a_miss_of_framing_words_in_markup_offers_no_suggestion(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Failed before: `/define # WHAT IS??` (a heading mark around the words) was "No entry"
    with **Suggest it**, where `WHAT IS??` is "Nothing to look up": search reads both alike.
    `/suggest` refuses such a name, markup or not."""
    for asked in ("WHAT IS??", "# WHAT IS??", "-# what is"):
        _, answer = await define(scene.fake, scene.bob, asked, scene.channel)
        assert answer["content"].startswith("Nothing to look up"), (asked, answer)
        assert "Suggest it" not in buttons(answer), (asked, answer)
    for asked in ("what is", "# what is"):
        refused = await scene.fake.slash(
            scene.alice, "suggest", {"term": asked}, channel=scene.channel
        )
        said = (await refused.final_message())["content"]
        assert "is only the wording of a question" in said, (asked, said)
    assert await store.open_suggestions(scene.guild.id) == []


# -- 3. an alias too long only as search reads it says so --


async def test_an_alias_that_expands_past_the_cap_says_it_expands(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """11 x "ﷺ" is 198 characters under NFKC (each 18). Failed before: "at most 100
    characters" alone, though the moderator typed 11. Typed too long, the cap alone, as before."""
    said = await moderator_answer(scene, "alias add", {"alias": "ﷺ" * 11, "term": "lora"})
    assert said.startswith("An alias can be at most 100 characters long as search reads it: "), said
    assert "the 11 typed expand to " in said, said
    said = await moderator_answer(scene, "alias add", {"alias": "zorb" * 26, "term": "lora"})
    assert said.startswith("An alias can be at most 100 characters long."), said
    assert await store.aliases(scene.guild.id) == {}
