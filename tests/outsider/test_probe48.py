import asyncio
from tests.discord_app.helpers import define
from tests.discord_app.test_terms import open_add, submit
from tests.outsider.conftest import Scene
from bot.discord_app.app import GlossaryBot
from bot.storage import Store


async def test_probe(scene: Scene, bot: GlossaryBot, store: Store) -> None:
    fake = scene.fake
    # W1: the same title at once
    a = await open_add(scene, scene.moderator, category="Retrieval & Context")
    b = await open_add(scene, scene.admin, category="Retrieval & Context")
    ra, rb = await asyncio.gather(
        submit(scene, scene.moderator, a, {"title": "Zorblax", "definition": "A's text."}),
        submit(scene, scene.admin, b, {"title": "Zorblax", "definition": "B's text."}),
    )
    print("W1 A:", ra["content"][:300]); print("W1 B:", rb["content"][:300])
    # W2: an other name that is A's title
    c = await open_add(scene, scene.admin, category="Retrieval & Context")
    rc = await submit(scene, scene.admin, c, {"title": "Zorb Engine", "definition": "x", "other_names": "zorblax"})
    print("W2:", rc["content"][:300])
    # W2b: a title that is an alias of a bundled entry / a plural of the term
    d = await open_add(scene, scene.admin, category="Retrieval & Context")
    rd = await submit(scene, scene.admin, d, {"title": "Zorblaxes", "definition": "x"})
    print("W2b:", rd["content"][:300])
    # W4: two members suggest the same; a member suggests an existing term
    for who, name in ((scene.alice, "Snarfle"), (scene.bob, "snarfle"), (scene.alice, "zorblax"), (scene.bob, "RAG")):
        h = await fake.slash(who, "suggest", {}, channel=scene.channel)
        r = await h.response()
        if r["type"] == 9:
            s = await fake.submit_modal(who, h, {"title": name, "definition": f"What {name} is."})
            m = await s.final_message()
        else:
            m = await h.final_message()
        print("W4", name, "->", m["content"][:300])
    rv = await fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
    m = await rv.final_message()
    print("W5", m["content"][:200], [e.get("title") for e in m["embeds"]], [e.get("footer") for e in m["embeds"]])
