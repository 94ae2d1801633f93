"""left58 (PLAN.md, "Leftovers (left58)"): leftovers of left56, review63 and left57 through the
fake Discord, as members and moderators meet them; each test failing on main 9d665695 first."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.discord_app.app import GlossaryBot
from bot.glossary import lookalikes
from bot.storage import Store
from tests.discord_app.helpers import buttons, define, embed_of, is_ephemeral
from tests.discord_app.term_commands import TERM, add_term
from tests.fake_discord.handles import JSON

from .conftest import Scene
from .test_left47 import moderator_answer

# What a member types into `/define` to learn how to use the bot.
HOW_TO = ("how to use this bot?", "how do i use you", "help", "what can you do?")


async def test_define_asked_how_to_use_the_bot_answers_how(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """`/define how to use this bot?` opened System Prompt's card (the meaning's leader, no
    name in it), "help" a public "No entry"; a mention of the same words got the help line.
    Now one rule for both: words said to the bot are answered with how to ask, privately, no
    missed search; a server's own name for them (an alias "help") still opens its card."""
    for text in HOW_TO:
        _, answer = await define(scene.fake, scene.alice, text, scene.channel)
        assert not answer["embeds"], (text, answer["embeds"][0]["title"])
        assert "`/define`" in answer["content"], (text, answer)
        assert "e.g." in answer["content"], (text, answer)
        assert is_ephemeral(answer), (text, answer)
    await store.flush()
    assert await store.top_misses(scene.guild.id) == []
    added = await moderator_answer(scene, "alias add", {"alias": "help", "term": "rag"})
    assert added.startswith("Added"), added
    _, answer = await define(scene.fake, scene.alice, "help", scene.channel)
    assert "RAG" in answer["embeds"][0]["title"], answer


def _long_title(end: str) -> str:
    """A 256-character title, the longest the form takes, ending in `end`."""
    head = "Zorbledger " + " ".join(f"shard{n}" for n in range(60))
    return head[: 256 - len(end) - 1].rstrip() + " " + end


async def _two_long_titled_terms(scene: Scene, alpha: str, omega: str) -> list[JSON]:
    """Terms titled `alpha` and `omega` (the second related to the first) and "Zorbhub" related
    to both, added through the form; the choices `/term remove` offers for "zorbledger"."""
    for values in (
        {**TERM, "title": alpha, "other_names": "", "related": ""},
        {**TERM, "title": omega, "other_names": "", "related": alpha},
        {**TERM, "title": "Zorbhub", "other_names": "", "related": f"{alpha}, {omega}"},
    ):
        added = await add_term(scene, values)
        assert added["content"].startswith("Added"), added["content"]
    typing = await scene.fake.autocomplete(
        scene.moderator, "term remove", {"term": "zorbledger"}, focused="term",
        channel=scene.channel,
    )  # fmt: skip
    return await typing.choices()


async def test_two_long_titles_that_differ_at_the_end_are_told_apart_where_they_are_cut(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Two 256-character titles differing only in their last word were cut to the same 100
    characters in `/term remove`'s refusal ("“Zorbledger … […]” is a related term of
    “Zorbledger … […]”"), and alike in a card's buttons and `/term remove`'s choices: a
    moderator could not tell which was meant. A title cut keeps its start and its end now,
    within Discord's limits (a choice's name 100, a button's label 80)."""
    alpha, omega = _long_title("Alpha"), _long_title("Omega")
    assert len(alpha) == len(omega) == 256
    choices = {c["name"]: c["value"] for c in await _two_long_titled_terms(scene, alpha, omega)}
    assert len(choices) == 2, choices
    assert all(len(name) <= 100 for name in choices), choices
    [alpha_id] = [value for name, value in choices.items() if name.endswith("Alpha")]
    removing = await scene.fake.slash(
        scene.admin, "term remove", {"term": alpha_id}, channel=scene.channel
    )
    refusal = str((await removing.final_message())["content"])
    named = re.findall(r"“([^”]*)”", refusal)
    assert named[0].endswith("Alpha"), refusal
    assert named[-1].endswith("Omega"), refusal
    assert named[0][:50] == named[-1][:50], refusal  # both cut, each keeping its end
    assert "is a related term of" in refusal, refusal
    _, card = await define(scene.fake, scene.alice, "zorbhub", scene.channel)
    labels = [b for b in buttons(card) if b.startswith("Zorbledger")]
    assert len(labels) == 2, buttons(card)
    assert all(len(label) <= 80 for label in labels), labels
    assert sorted(label[-5:] for label in labels) == ["Alpha", "Omega"], labels


async def test_a_markdown_title_is_shown_as_typed_everywhere(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """A title `**Zorb** _job_` (and `a_b_c`): the "Added" answer showed it as typed, the
    card's embed title drew it as Markdown (bold "Zorb", italic "job"; "a", italic "b", "c").
    One way now, as typed: escaped where Discord renders Markdown (the card's title, answers),
    as it is where it does not (autocomplete choices, buttons)."""
    for title, escaped, related in (
        ("**Zorb** _job_", "\\*\\*Zorb\\*\\* \\_job\\_", "RAG"),
        ("a_b_c zorb", "a\\_b\\_c zorb", "**Zorb** _job_"),
    ):
        values = {**TERM, "title": title, "other_names": "", "related": related}
        added = await add_term(scene, values)
        assert added["content"].startswith(f"Added **{escaped}**"), added["content"]
        typing = await scene.fake.autocomplete(
            scene.alice, "define", {"term": title[:4]}, focused="term", channel=scene.channel
        )
        assert title in [c["name"] for c in await typing.choices()], title
        _, card = await define(scene.fake, scene.alice, title, scene.channel)
        assert embed_of(card)["title"] == escaped, (title, embed_of(card)["title"])
    assert "**Zorb** _job_" in buttons(card), buttons(card)  # a button's label: plain text


async def test_alias_add_checks_look_alikes_against_the_server_s_kept_index(
    scene: Scene, bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`/alias add` built the server's look-alike index of aliases afresh for every alias
    checked, beside the compiled aliases the bot keeps (and `aliases import` kept one of its
    own beside those): one home now, `ServerAliases.lookalikes`, built once per change of the
    server's aliases. The refusals are the same."""
    for n in range(1, 4):
        added = await moderator_answer(scene, "alias add", {"alias": f"blorp {n}", "term": "rag"})
        assert added.startswith("Added"), added
    built: list[int] = []
    real = lookalikes.alias_lookalikes

    def counted(aliases: Any) -> Any:
        built.append(len(aliases))
        return real(aliases)

    monkeypatch.setattr(lookalikes, "alias_lookalikes", counted)
    refusals = [
        await moderator_answer(scene, "alias add", {"alias": spoof, "term": "kv-cache"})
        for spoof in ("bl\u043erp 3", "bl\u043erp 2", "bl\u043erp 1")  # a Cyrillic о
    ]
    for n, refusal in zip((3, 2, 1), refusals, strict=True):
        assert f"“blorp {n}”" in refusal, refusal
        assert "RAG" in refusal, refusal
    assert built == [3], built
