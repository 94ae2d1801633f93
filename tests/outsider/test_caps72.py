"""caps72 (tests/outsider/PLAN.md, "caps72"): every string option the bot registers declares the
length README and `bot.limits` give it, so Discord's client (and the fake, as it) stops a longer
value; and `/suggest` refuses a name that is only a question's wording, as the term form that
would accept it does (frame72)."""

from __future__ import annotations

from typing import Any

import pytest

from bot import limits
from bot.discord_app.app import GlossaryBot
from bot.storage import Store

from .conftest import Scene
from .test_left47 import moderator_answer
from .test_mend72 import FRAMING

# Each string box the bot registers ("command [subcommand] option"): the most it takes.
DECLARED = {
    "define term": limits.DEFINE_TERM,
    "suggest term": limits.SUGGESTION_TITLE,
    "alias add alias": limits.ALIAS_OPTION,
    "alias add term": limits.TERM_NAME_OPTION,
    "alias remove alias": limits.ALIAS_OPTION,
    "alias list term": limits.TERM_NAME_OPTION,
    "term add acronym": limits.TERM_ACRONYM_OPTION,
    "term add summary": limits.TERM_SUMMARY_OPTION,
    "term add other_senses": limits.TERM_SENSES_OPTION,
    "term edit term": limits.TERM_NAME_OPTION,
    "term edit acronym": limits.TERM_ACRONYM_OPTION,
    "term edit summary": limits.TERM_SUMMARY_OPTION,
    "term edit other_senses": limits.TERM_SENSES_OPTION,
    "term remove term": limits.TERM_NAME_OPTION,
}


def _typed_boxes(command: dict[str, Any], path: str = "") -> dict[str, dict[str, Any]]:
    """A registered command's string options that are typed (not a list of choices), by path."""
    found: dict[str, dict[str, Any]] = {}
    for option in command.get("options") or []:
        named = f"{path} {option['name']}".strip()
        if option["type"] in (1, 2):  # SUB_COMMAND, SUB_COMMAND_GROUP
            found |= _typed_boxes(option, named)
        elif option["type"] == 3 and not option.get("choices"):  # STRING, typed
            found[named] = option
    return found


async def test_every_typed_box_declares_its_cap_and_the_fake_holds_it(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Failed before: `/alias remove`'s alias, the term boxes of `/alias add|list` and `/term
    edit|remove` declared no max_length (Discord's 6,000), and `/suggest`'s 100 was a number of
    its own. Now each declares its cap from `bot.limits`, and the fake refuses one past it as
    Discord's client does."""
    fake = scene.fake
    boxes: dict[str, dict[str, Any]] = {}
    for command in fake.commands():
        boxes |= _typed_boxes(command, command["name"])
    assert {name: box.get("max_length") for name, box in boxes.items()} == DECLARED
    for spec_bound in DECLARED.values():  # Discord's bounds for a string option's max_length
        assert 1 <= spec_bound <= 6000
    for command, options, past in (
        ("alias remove", {"alias": "a" * (limits.ALIAS_OPTION + 1)}, limits.ALIAS_OPTION),
        ("term remove", {"term": "t" * (limits.TERM_NAME_OPTION + 1)}, limits.TERM_NAME_OPTION),
        ("suggest", {"term": "s" * (limits.SUGGESTION_TITLE + 1)}, limits.SUGGESTION_TITLE),
    ):
        with pytest.raises(ValueError, match=rf"length must be within 1\.\.{past}"):
            await fake.slash(scene.moderator, command, options, channel=scene.channel)
    assert fake.pop_violations() == []


async def test_what_the_box_lets_through_is_still_refused_in_words(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Within the boxes, what Discord cannot check is said in one line: an alias past its 100
    characters once normalised, a term name the server does not have."""
    said = await moderator_answer(
        scene, "alias add", {"alias": "q" * limits.ALIAS_OPTION, "term": "lora"}
    )
    assert said == f"An alias can be at most {limits.ALIAS} characters long.", said
    said = await moderator_answer(scene, "alias remove", {"alias": "q" * limits.ALIAS_OPTION})
    assert said.startswith(f"This server has no alias “{'q' * 50}"), said  # echo cuts it
    long_name = "t" * limits.TERM_NAME_OPTION
    said = await moderator_answer(scene, "term remove", {"term": long_name})
    assert said.startswith("This server has no term “t"), said
    assert await store.aliases(scene.guild.id) == {}


async def test_suggest_refuses_a_name_of_only_a_question_s_words(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Failed before: `/suggest` queued "what is" (the form opened, its submit was thanked), and
    accepting it opened a term form that refused the name. Now `/suggest` says the form's reason
    in one line, before the form and at its submit, and queues nothing; words said to the bot
    ("thanks") stay names, as for aliases and terms."""
    fake = scene.fake
    for name in FRAMING:
        asked = await fake.slash(scene.alice, "suggest", {"term": name}, channel=scene.channel)
        said = (await asked.final_message())["content"]
        assert said == f"{_reason(name)} Nothing was queued.", (name, said)
        opened = await fake.slash(scene.alice, "suggest", {}, channel=scene.channel)
        assert (await opened.response())["type"] == 9
        sent = await fake.submit_modal(
            scene.alice, opened, {"title": name, "definition": "What I think it is."}
        )
        said = (await sent.final_message())["content"]
        assert said == f"{_reason(name)} Nothing was queued.", (name, said)
    assert await store.open_suggestions(scene.guild.id) == []
    opened = await fake.slash(scene.alice, "suggest", {"term": "thanks"}, channel=scene.channel)
    assert (await opened.response())["type"] == 9


def _reason(name: str) -> str:
    """The term form's reason for such a name (frame72's, the rule said by product73), word for
    word."""
    cased = f", in any case (“{name}” reads as “{name.lower()}”)" if name != name.lower() else ""
    return (
        f"“{name}” is only the wording of a question (or filler), which search leaves out around "
        f"the term asked{cased}: as a name it would answer “what is it”. Use a name of the term "
        "itself; words said to the bot on their own (“thanks”, “ok”, “hi”) may be names."
    )
