"""review67 (PLAN.md, "Attacks on last session's changes (review67)"): last session's moderator
limits and forms attacked through the fake Discord as moderators meet them; each test failing on
main 2e0bd456 first."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bot.storage import StorageUnavailable, Store
from bot.term_storage import read_terms
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons
from tests.discord_app.term_commands import IDEA, TERM, add_term, open_add, submit

from .conftest import Scene
from .test_round7 import logged

SLOW = "You're going a bit fast"
HANG = 60.0  # a bound on a hang only
WEBHOOK = "/webhooks/{application_id}/{token}"
ANSWERS = (("POST", WEBHOOK), ("PATCH", WEBHOOK + "/messages/{message_id}"))


async def test_a_reject_whose_answer_discord_fails_gives_its_use_back_when_it_closed_nothing(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """A Reject of a suggestion another moderator decided meanwhile closes nothing and gives its
    use back (left64), but only after its answer was sent: Discord refusing that answer (404,
    the interaction gone)
    kept the use of a Reject that wrote nothing, and with 1 use a window the next Reject, of a
    suggestion still open, was "going a bit fast"."""
    fake = scene.fake
    for member, title in ((scene.alice, "zorblax"), (scene.bob, "plimwort")):
        await store.add_suggestion(scene.guild.id, member.id, title, IDEA)
    [zorblax, _] = await store.open_suggestions(scene.guild.id)
    async with start_bot(store, cooldown=(1, 3600.0)):
        review = await fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
        shown = await review.final_message()
        await store.decide_suggestion(  # by another moderator, meanwhile
            scene.guild.id, zorblax.id, accepted=False, actor_id=scene.admin.id
        )
        for method, path in ANSWERS:  # the interaction's token expired (Unknown Webhook)
            fake.fail_next(method, path, status=404)
        lost = asyncio.ensure_future(logged("'gb:sugg:no:", within=HANG))
        await fake.click(scene.moderator, shown, buttons(shown)["Reject"])
        await lost  # its answer failed: the error logged
        review = await fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
        shown = await review.final_message()
        clicked = await fake.click(scene.moderator, shown, buttons(shown)["Reject"])
        said = (await clicked.final_message())["content"]
        assert said.startswith("Rejected the suggestion"), said


async def test_a_removal_never_confirmed_costs_no_use(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """`/term remove` took its use at the command, though only its confirm writes: with 1 use a
    window, a moderator who asked, thought better of it and did not press Remove (or pressed it
    after another moderator had removed the term) could remove nothing more in that window.
    The use is now the confirm's: taken at the press, given back where it removed nothing;
    the command is still refused once the uses are spent."""
    fake = scene.fake

    async def asked(term: str) -> dict[str, Any]:
        handle = await fake.slash(
            scene.moderator, "term remove", {"term": term}, channel=scene.channel
        )
        return await handle.final_message()

    async def confirmed(prompt: dict[str, Any], by: Any = scene.moderator) -> str:
        clicked = await fake.click(by, prompt, buttons(prompt)["Remove"])
        [done] = await clicked.followups(1)
        return str(done["content"])

    async with start_bot(store, cooldown=(1, 3600.0)):
        await add_term(scene)
        opened = await open_add(scene, scene.admin, category="Retrieval & Context")
        await submit(scene, scene.admin, opened, {**TERM, "title": "Plimwort", "other_names": ""})
        unpressed = await asked("zorblax")  # never confirmed
        assert "Remove" in buttons(unpressed), unpressed
        twice = await asked("zorblax")
        assert "Remove" in buttons(twice), twice["content"]
        other = await fake.slash(
            scene.admin, "term remove", {"term": "zorblax"}, channel=scene.channel
        )
        removed = await confirmed(await other.final_message(), by=scene.admin)
        assert removed == "Removed “Zorblax”."
        assert await confirmed(twice) == "That term is already gone: nothing to remove."
        plimwort, again = await asked("plimwort"), await asked("plimwort")
        assert await confirmed(plimwort) == "Removed “Plimwort”."
        late = await fake.click(scene.moderator, again, buttons(again)["Remove"])
        said = (await late.final_message())["content"]  # spent: said at the press
        assert said.startswith(SLOW), said
        assert "Remove" in buttons(fake.store.snapshot(int(again["id"]))), "the question stays"
        said = (await asked("zorblax"))["content"]
        assert said.startswith(SLOW), said
        assert await read_terms(store, scene.guild.id) == []


async def test_a_saved_form_stays_saved_when_its_mark_could_not_be_written(
    scene: Scene, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """review65 marks a form saved (its draft `written`) once its save writes, so a refused
    answer's Edit again opens it no more. The mark was a write of its own after the term's:
    the database failing at that moment (a lock, a full disk) kept it in memory only, and
    after a restart the old Edit again opened the form once more, whose save then added a
    second term on the command's one use. The mark is now written with the term, in one
    transaction."""
    fake, moderator = scene.fake, scene.moderator
    keep_draft = Store.save_term_draft

    async def failing_at_the_mark(
        store: Store, nonce: str, scope: int, owner: int, body: str
    ) -> None:
        if json.loads(body)["written"] is not None:
            raise StorageUnavailable("database is locked")
        await keep_draft(store, nonce, scope, owner, body)

    async with start_bot(await Store.open(scene.db_path), cooldown=(1, 3600.0)):
        opened = await open_add(scene, moderator, category="Retrieval & Context")
        refused = await submit(scene, moderator, opened, {**TERM, "title": "@everyone"})
        again = buttons(refused)["Edit again"]
        reopened = await fake.click(moderator, refused, again)
        assert (await reopened.response())["type"] == 9
        monkeypatch.setattr(Store, "save_term_draft", failing_at_the_mark)
        saved = await (await fake.submit_modal(moderator, reopened, TERM)).final_message()
        assert str(saved["content"]).startswith("Added **Zorblax**"), saved["content"]
        monkeypatch.undo()
    store = await Store.open(scene.db_path)
    async with start_bot(store, cooldown=(1, 3600.0)):  # the draft read back from the database
        pressed = await fake.click(moderator, refused, again)
        said = str((await pressed.final_message())["content"])
        assert said.startswith("That form was saved already"), said
        assert [t.title for t in await read_terms(store, scene.guild.id)] == ["Zorblax"]


async def test_an_alias_removal_refused_gives_its_use_back_though_discord_fails_its_answer(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """`/alias remove` of an alias the server does not have removes nothing and gives its use
    back, but (as Reject's) only after its answer: Discord refusing that answer kept the use,
    and with 1 use a window the removal of a real alias was "going a bit fast"."""
    fake = scene.fake
    await store.add_alias(scene.guild.id, "zorbinator", "zorbinator", "rag", scene.admin.id)

    def remove(alias: str) -> Any:
        return fake.slash(scene.moderator, "alias remove", {"alias": alias}, channel=scene.channel)

    async with start_bot(store, cooldown=(1, 3600.0)):
        for method, path in ANSWERS:
            fake.fail_next(method, path, status=404)
        lost = asyncio.ensure_future(logged("alias remove", within=HANG))
        await remove("no such alias")
        await lost  # its answer failed: the error logged
        said = (await (await remove("zorbinator")).final_message())["content"]
        assert said == "Removed “zorbinator”.", said
