from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.discord_app.helpers import buttons, define, embed_of

from .botproc import BotProcess
from .conftest import Scene

TERM = {
    "title": "Zorblax",
    "definition": "The team's nightly batch job that re-ranks retrieved documents.",
    "boundary": "Not the reranker model itself.",
    "other_names": "zbx, nightly rerank",
    "related": "RAG",
}


def show(label: str, message: Any) -> None:
    content = message.get("content") if isinstance(message, dict) else message
    embeds = message.get("embeds") if isinstance(message, dict) else None
    print(f"### {label}: {content!r} | embed: {embeds[0].get('title') if embeds else None} {embeds[0].get('description','')[:200] if embeds else ''!r}")


async def term_add(scene: Scene, values: dict[str, str], **options: Any) -> Any:
    opened = await scene.fake.slash(scene.moderator, "term add", {"category": "Fundamentals", **options}, channel=scene.channel)
    await opened.response()
    submitted = await scene.fake.submit_modal(scene.moderator, opened, values)
    return await submitted.final_message()


async def alias(scene: Scene, text: str, term: str) -> Any:
    h = await scene.fake.slash(scene.moderator, "alias add", {"alias": text, "term": term}, channel=scene.channel)
    return await h.final_message()


async def test_probe(scene: Scene, tmp_path: Path) -> None:
    fake = scene.fake
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="1000") as bot:
        show("term zorblax", await term_add(scene, TERM))
        show("alias blorp -> zorblax", await alias(scene, "blorp", "zorblax"))
        # remove zorblax, which an alias points at
        h = await fake.slash(scene.moderator, "term remove", {"term": "zorblax"}, channel=scene.channel)
        m = await h.final_message()
        show("remove zorblax", m)
        if buttons(m):
            label, cid = next(iter(buttons(m).items()))
            c = await fake.click(scene.moderator, m, cid)
            r = await c.response()
            print("click resp", r)
            show(f"click {label}", await c.final_message())
        _, m = await define(fake, scene.alice, "zorblax", scene.channel)
        show("define zorblax", m)
        _, m = await define(fake, scene.alice, "blorp", scene.channel)
        show("define blorp", m)
        h = await fake.slash(scene.moderator, "alias list", {}, channel=scene.channel)
        show("alias list", await h.final_message())
        # suggestions
        h = await fake.slash(scene.alice, "suggest", {"term": "@\u0435veryone \u202eevil"}, channel=scene.channel)
        r = await h.response()
        print("suggest response type", r.get("type"))
        if r.get("type") == 9:
            s = await fake.submit_modal(scene.alice, h, {"definition": "ping @everyone <@&1> https://x.example \u202e" + "x" * 1900})
            show("suggest submitted", await s.final_message())
        h = await fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
        m = await h.final_message()
        show("review", m)
        print(repr(m.get("embeds"))[:800])
    print("\n".join(line for line in bot.lines if "Traceback" in line or "ERROR" in line or "Error" in line))
