"""left57: outsider53's leftovers through the fake Discord (PLAN.md, "Leftovers of outsider53
(left57)"): two moderators deciding one suggestion at the same moment, the term form's names,
and a related term's button after that term was removed."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.cards.embed import shown_name
from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import buttons, define, embed_of, is_ephemeral
from tests.discord_app.term_commands import (
    TERM,
    add_term,
    open_add,
    open_edit,
    submit,
    suggest_from_a_miss,
)

from .conftest import Scene
from .test_round19 import accept_form


async def _review(scene: Scene, user: Any) -> dict[str, Any]:
    review = await scene.fake.slash(user, "term review", {}, channel=scene.channel)
    return await review.final_message()


async def test_two_moderators_deciding_one_suggestion_at_the_same_moment(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Accept (the form's save) and Reject sent together, then two Accept saves together: one
    decision each time, the other told plainly, one term, an audit log that is true."""
    fake = scene.fake
    assert (await suggest_from_a_miss(scene, "zorblax")).startswith("Thanks!")
    [waiting] = await store.open_suggestions(scene.guild.id)
    form = await accept_form(scene, scene.moderator)
    shown = await _review(scene, scene.admin)
    saved, rejected = await asyncio.gather(
        fake.submit_modal(scene.moderator, form, {"title": "Zorblax"}),
        fake.click(scene.admin, shown, buttons(shown)["Reject"]),
    )
    said = [(await saved.final_message())["content"], (await rejected.final_message())["content"]]
    terms = await read_terms(store, scene.guild.id)
    decided = await store.suggestion(scene.guild.id, waiting.id)
    assert decided is not None
    if decided.status == "accepted":
        assert said[0].startswith("Added **Zorblax**"), said
        assert "already accepted" in said[1], said
        assert [t.title for t in terms] == ["Zorblax"]
    else:
        assert said[1].startswith("Rejected the suggestion"), said
        assert said[0].startswith("Nothing was saved"), said
        assert "already rejected" in said[0], said
        assert terms == []
    # One decision in the audit log, the one stored.
    decisions = [
        a.action for a in await store.term_audit_log(scene.guild.id) if a.action.startswith("sug")
    ]
    assert decisions == [f"suggestion_{decided.status[:-2]}"], decisions

    # Another member's (one member's suggestions are spaced by a cooldown).
    _, miss = await define(fake, scene.bob, "quuxfield", scene.channel)
    opened = await fake.click(scene.bob, miss, buttons(miss)["Suggest it"])
    assert (await opened.response())["type"] == 9
    sent_in = await fake.submit_modal(scene.bob, opened, {"definition": "Our team's store."})
    assert (await sent_in.final_message())["content"].startswith("Thanks!")
    forms = [await accept_form(scene, user) for user in (scene.moderator, scene.admin)]
    sent = await asyncio.gather(
        *(
            fake.submit_modal(user, f, {"title": "Quuxfield"})
            for user, f in zip((scene.moderator, scene.admin), forms, strict=True)
        )
    )
    answers = sorted([(await s.final_message())["content"] for s in sent])
    assert answers[0].startswith("Added **Quuxfield**"), answers
    assert answers[1].startswith("Nothing was saved"), answers
    assert "already accepted" in answers[1], answers
    titles = [t.title for t in await read_terms(store, scene.guild.id)]
    assert titles.count("Quuxfield") == 1, titles
    audit = [(a.action, a.term_id) for a in await store.term_audit_log(scene.guild.id)]
    assert audit.count(("term_add", "quuxfield")) == 1, audit
    decided_twice = [a for a, _ in audit if a.startswith("suggestion_")]
    assert len(decided_twice) == 2, audit  # one for each suggestion


async def test_the_term_form_s_names_and_text_as_a_moderator_writes_them(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Held (pinned): a mention in the definition is refused, named; a Japanese title and a
    markdown title are added and found by autocomplete and `/define`; a bundled entry's other
    name as a title becomes that entry's server wording (so "RAG" related is itself); a server
    alias as a title is refused naming the alias."""
    fake = scene.fake
    said: dict[str, str] = {}
    for label, values in {
        "everyone": {**TERM, "definition": "Ping @everyone when the nightly job fails."},
        "japanese": {**TERM, "title": "ゾルブラックス", "other_names": ""},
        "markdown": {**TERM, "title": "**Zorb** _job_", "other_names": ""},
        "bundled alias": {**TERM, "title": "retrieval augmented generation", "other_names": ""},
    }.items():
        opened = await open_add(scene, scene.moderator, category="Fundamentals")
        said[label] = (await submit(scene, scene.moderator, opened, values))["content"]
    alias = await fake.slash(
        scene.moderator, "alias add", {"alias": "kv stash", "term": "kv-cache"},
        channel=scene.channel,
    )  # fmt: skip
    assert (await alias.final_message())["content"].startswith("Added: “kv stash”")
    opened = await open_add(scene, scene.moderator, category="Fundamentals")
    stash = {**TERM, "title": "KV Stash", "other_names": ""}
    said["server alias"] = (await submit(scene, scene.moderator, opened, stash))["content"]

    assert "Definition: definition cannot contain mentions" in said["everyone"], said
    assert said["japanese"].startswith("Added **ゾルブラックス**"), said
    assert said["markdown"].startswith("Added **\\*\\*Zorb\\*\\* \\_job\\_**"), said
    assert "“RAG” is this term itself" in said["bundled alias"], said
    assert "is already this server's alias “kv stash” (for **KV Cache**)" in said["server alias"]
    assert sorted(t.title for t in await read_terms(store, scene.guild.id)) == [
        "**Zorb** _job_",
        "ゾルブラックス",
    ]
    for typed, title in (("ゾルブラックス", "ゾルブラックス"), ("zorb job", "**Zorb** _job_")):
        typing = await fake.autocomplete(
            scene.alice, "define", {"term": typed[:4]}, focused="term", channel=scene.channel
        )
        assert [c["name"] for c in await typing.choices()][:1] == [title]
        _, card = await define(fake, scene.alice, typed, scene.channel)
        assert embed_of(card)["title"] == shown_name(title)  # as typed (left58)


async def test_a_related_term_s_button_after_that_term_was_removed(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Held (pinned): a card's related button for a server term removed since (first taken out
    of the related terms, as `/term remove` asks) answers privately that it is gone."""
    fake = scene.fake
    blorp = {**TERM, "title": "Blorptex", "other_names": "", "related": ""}
    assert (await add_term(scene, blorp))["content"].startswith("Added **Blorptex**")
    assert (await add_term(scene, {**TERM, "related": "Blorptex"}))["content"].startswith(
        "Added **Zorblax**"
    )
    _, card = await define(fake, scene.alice, "zorblax", scene.channel)
    related = buttons(card)
    edit = await open_edit(scene, scene.moderator, "zorblax")
    assert (await submit(scene, scene.moderator, edit, {"related": ""}))["content"].startswith(
        "Saved **Zorblax**"
    )
    removing = await fake.slash(
        scene.admin, "term remove", {"term": "blorptex"}, channel=scene.channel
    )
    prompt = await removing.final_message()
    confirmed = await fake.click(scene.admin, prompt, buttons(prompt)["Remove"])
    assert (await confirmed.followups(1))[0]["content"] == "Removed “Blorptex”."
    pressed = await fake.click(scene.alice, card, related["Blorptex"])
    answer = await pressed.final_message()
    assert is_ephemeral(answer)
    assert answer["content"] == "That entry is no longer in this server's glossary."
