"""A moderator's /term commands and a member's suggestion driven through the fake, as the tests
of many files use them: the add and edit forms (`TERM`, `open_add`, `submit`, `add_term`,
`open_edit`, `edit_answer`), a file import (`TOML`, `run_import`), a suggestion from a missed search
(`IDEA`, `suggest_from_a_miss`), and terms stored as no form could store them (`made_up`,
`stored_now`)."""

from __future__ import annotations

from typing import Any

from bot.discord_app.app import GlossaryBot
from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from bot.term_storage import TermChange, change_terms
from tests.fake_discord import FakeAttachment, FakeChannel, FakeUser, InteractionHandle

from .conftest import Scene
from .helpers import buttons, define, is_ephemeral

TERM = {
    "title": "Zorblax",
    "definition": "The team's nightly batch job that re-ranks retrieved documents.",
    "boundary": "Not the reranker model itself.",
    "other_names": "zbx, nightly rerank",
    "related": "RAG",
}


async def open_add(scene: Scene, user: FakeUser, **options: Any) -> InteractionHandle:
    opened = await scene.fake.slash(user, "term add", options, channel=scene.channel)
    assert (await opened.response())["type"] == 9
    return opened


async def submit(
    scene: Scene, user: FakeUser, opened: InteractionHandle, values: dict[str, str]
) -> dict[str, Any]:
    submitted = await scene.fake.submit_modal(user, opened, values)
    message = await submitted.final_message()
    assert is_ephemeral(message)
    return message


async def add_term(scene: Scene, values: dict[str, str] = TERM, **options: Any) -> dict[str, Any]:
    opened = await open_add(scene, scene.moderator, category="Retrieval & Context", **options)
    return await submit(scene, scene.moderator, opened, values)


async def open_edit(scene: Scene, user: FakeUser, term: str) -> InteractionHandle:
    opened = await scene.fake.slash(user, "term edit", {"term": term}, channel=scene.channel)
    assert (await opened.response())["type"] == 9
    return opened


async def edit_answer(scene: Scene, term: str, values: dict[str, str]) -> str:
    """What the moderator is told after editing `term` in the form to `values`."""
    opened = await open_edit(scene, scene.moderator, term)
    return str((await submit(scene, scene.moderator, opened, values))["content"])


def made_up(name: str, **fields: Any) -> ServerTerm:
    """A server term of no meaning: `name` its id, its title "Name", "A made-up name." its
    definition, in Fundamentals; `fields` set others or change these."""
    made = {"id": name, "title": name.title(), "definition": f"A made-up {name}."}
    return ServerTerm(**{**made, "category": "Fundamentals", **fields})


async def stored_now(scene: Scene, bot: GlossaryBot, store: Store, *terms: ServerTerm) -> None:
    """`terms` written straight to the store (as an older version or a file left them), and
    the bot reading the server's terms again now, not at its next check."""
    await change_terms(store, scene.guild.id, lambda *_: (TermChange(put=terms), None), 1)
    bot.state.servers.forget(scene.guild.id)
    await bot.state.servers.local(scene.guild.id, patient=True)


TOML = """
[[entries]]
id = "zorblax"
title = "Zorblax"
category = "Retrieval & Context"
summary = "Our nightly rerank job."
definition = "The team's nightly batch job that re-ranks retrieved documents."
aliases = ["zbx"]
related = ["blorptex", "rag"]

[[entries]]
id = "blorptex"
title = "Blorptex"
category = "Retrieval & Context"
summary = "The morning twin of Zorblax."
definition = "The morning job that warms the caches Zorblax filled."
related = ["zorblax"]
"""


async def run_import(
    scene: Scene,
    upload: FakeAttachment,
    *,
    user: FakeUser | None = None,
    channel: FakeChannel | None = None,
    **options: Any,
) -> str:
    handle = await scene.fake.slash(
        user or scene.moderator,
        "term import",
        {"file": upload, **options},
        channel=channel or scene.channel,
    )
    message = await handle.final_message()
    assert is_ephemeral(message)
    return str(message["content"])


IDEA = "The nightly job that re-ranks what retrieval found, run by our team."


async def suggest_from_a_miss(scene: Scene, query: str = "zorblax") -> str:
    fake = scene.fake
    _, miss = await define(fake, scene.alice, query, scene.channel)
    opened = await fake.click(scene.alice, miss, buttons(miss)["Suggest it"])
    body = await opened.response()
    assert body["type"] == 9
    submitted = await fake.submit_modal(scene.alice, opened, {"definition": IDEA})
    answer = await submitted.final_message()
    assert is_ephemeral(answer)
    return str(answer["content"])
