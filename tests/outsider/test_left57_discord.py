"""left57: outsider53's leftovers through the fake Discord (PLAN.md, "Leftovers of outsider53
(left57)"): two moderators deciding one suggestion at the same moment, the term form's names,
and a related term's button after that term was removed."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import buttons, define, embed_of
from tests.discord_app.test_suggestions import suggest_from_a_miss
from tests.discord_app.test_terms import TERM, add_term, open_add, submit

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
