"""What a nineteenth round of outside testing found: two things at once (a card, a form or a
review held open while another moderator, the command line or a restart changes what it
shows), through the real bot against the fake Discord (tests/outsider/PLAN.md, round 19)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import buttons
from tests.discord_app.term_commands import IDEA, add_term, open_edit, submit, suggest_from_a_miss
from tests.fake_discord import FakeUser, InteractionHandle

from .conftest import Scene
from .test_round14 import _cli


async def accept_form(scene: Scene, moderator: FakeUser) -> InteractionHandle:
    """`/term review` (category given) and its Accept…: the term form, filled, open."""
    fake = scene.fake
    review = await fake.slash(
        moderator, "term review", {"category": "Fundamentals"}, channel=scene.channel
    )
    shown = await review.final_message()
    accept = await fake.click(moderator, shown, buttons(shown)["Accept…"])
    assert (await accept.response())["type"] == 9  # the form
    return accept


async def decided_by_the_admin(scene: Scene, verdict: str) -> None:
    """The admin decides the suggestion from a review of their own: Reject, or Accept… and save."""
    if verdict == "Accept…":
        theirs = await accept_form(scene, scene.admin)
        sent = await scene.fake.submit_modal(scene.admin, theirs, {"title": "Zorblax"})
        assert "Accepted the suggestion" in (await sent.final_message())["content"]
        return
    review = await scene.fake.slash(scene.admin, "term review", {}, channel=scene.channel)
    shown = await review.final_message()
    rejected = await scene.fake.click(scene.admin, shown, buttons(shown)["Reject"])
    assert (await rejected.final_message())["content"].startswith("Rejected the suggestion")


@pytest.mark.parametrize(
    ("verdict", "said"),
    [("Reject", "rejected"), ("Accept…", "accepted")],
)
async def test_an_accept_form_saved_after_another_moderator_decided_writes_nothing(
    scene: Scene, bot: GlossaryBot, store: Store, verdict: str, said: str
) -> None:
    """Plan lines V44/V45: two moderators review the same suggestion; one opens Accept…'s form,
    the other rejects it (the member is told it was not added) or accepts it as a term of its
    own. The first form's save still added its term, answering "Added … That suggestion was
    already decided": a term the member was told would not be written, or a second term from
    one suggestion, while Accept… clicked a moment later refuses ("already decided"). Now the
    save writes nothing and says what happened; the text is kept, and Edit again opens it as a
    plain `/term add` form."""
    fake = scene.fake
    assert (await suggest_from_a_miss(scene, "zorblax")).startswith("Thanks!")
    mine = await accept_form(scene, scene.moderator)
    await decided_by_the_admin(scene, verdict)
    before = [t.title for t in await read_terms(store, scene.guild.id)]

    sent = await fake.submit_modal(scene.moderator, mine, {"title": "Zorblax Job"})
    answer: dict[str, Any] = await sent.final_message()
    assert answer["content"].startswith("Nothing was saved"), answer["content"]
    assert f"suggestion was already {said}" in answer["content"], answer["content"]
    assert [t.title for t in await read_terms(store, scene.guild.id)] == before
    audit = [a.action for a in await store.term_audit_log(scene.guild.id)]
    assert audit.count("term_add") == len(before)

    again = await fake.click(scene.moderator, answer, buttons(answer)["Edit again"])
    assert (await again.response())["type"] == 9
    saved = await (await fake.submit_modal(scene.moderator, again, {})).final_message()
    assert saved["content"].startswith("Added **Zorblax Job**"), saved["content"]
    assert "suggestion" not in saved["content"], saved["content"]  # a term of its own now
    assert IDEA in [t.definition for t in await read_terms(store, scene.guild.id)]


async def test_an_edit_of_a_term_removed_meanwhile_can_be_saved_from_edit_again(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line V46: a moderator edits a term while another removes it. The save says "this
    term was removed while you edited it … Your text is kept: press Edit again", but Edit again
    reopened the same edit of the removed term, refused the same way at every save: the text
    kept could never be saved. Now Edit again opens it as a new term, and its save adds it."""
    fake = scene.fake
    assert (await add_term(scene))["content"].startswith("Added **Zorblax**")
    mine = await open_edit(scene, scene.moderator, "zorblax")
    removing = await fake.slash(
        scene.admin, "term remove", {"term": "zorblax"}, channel=scene.channel
    )
    prompt = await removing.final_message()
    confirmed = await fake.click(scene.admin, prompt, buttons(prompt)["Remove"])
    assert (await confirmed.followups(1))[0]["content"] == "Removed “Zorblax”."

    told = await submit(scene, scene.moderator, mine, {"definition": "My newer words for it."})
    assert "removed while you edited it" in told["content"], told["content"]
    assert await read_terms(store, scene.guild.id) == []
    again = await fake.click(scene.moderator, told, buttons(told)["Edit again"])
    assert (await again.response())["type"] == 9
    saved = await submit(scene, scene.moderator, again, {})
    assert saved["content"].startswith("Added **Zorblax**"), saved["content"]
    [term] = await read_terms(store, scene.guild.id)
    assert term.definition == "My newer words for it."


async def test_an_edit_refused_after_the_command_line_changed_the_term_blames_no_moderator(
    scene: Scene, bot: GlossaryBot, store: Store, tmp_path: Path
) -> None:
    """Plan line V25: a moderator's `/term edit` form was open while the operator's `glossary-bot
    terms import` changed the term. The save was refused (right) saying "another moderator
    changed this term while you edited it", while `/term log` names an operator on the command
    line. Now it names no one it cannot know, and points at `/term log`."""
    assert (await add_term(scene))["content"].startswith("Added **Zorblax**")
    mine = await open_edit(scene, scene.moderator, "zorblax")
    file = tmp_path / "terms.toml"
    file.write_text(
        '[[entries]]\nid = "zorblax"\ntitle = "Zorblax"\ncategory = "Fundamentals"\n'
        'definition = "The operator\'s words for it."\n'
    )
    imported = _cli(
        tmp_path,
        "terms",
        "import",
        str(file),
        "--guild",
        str(scene.guild.id),
        "--db",
        str(scene.db_path),
    )
    assert "1 changed" in imported.stdout, imported.stdout + imported.stderr

    told = await submit(scene, scene.moderator, mine, {"definition": "My newer words for it."})
    assert "changed this term while you edited it" in told["content"], told["content"]
    assert "another moderator" not in told["content"], told["content"]
    assert "`/term log`" in told["content"], told["content"]
    [term] = await read_terms(store, scene.guild.id)
    assert term.definition == "The operator's words for it."
