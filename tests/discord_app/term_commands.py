"""A moderator's /term commands and a member's suggestion driven through the fake, as the tests
of many files use them: the add and edit forms (`TERM`, `open_add`, `submit`, `add_term`,
`open_edit`), a file import (`TOML`, `run_import`), a suggestion from a missed search (`IDEA`,
`suggest_from_a_miss`)."""

from __future__ import annotations

from typing import Any

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
