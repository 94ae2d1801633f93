"""A server's own term with other senses (task senses77), through the real client against the
fake Discord: a moderator gives a game server's "Raid" the police raid as an other sense with
`/term add`'s option; a member asking of a police raid gets no card for it (an offer), one
asking of the game's raid keeps the card; `/term edit` replaces or clears the senses; the
export carries them and imports back into another server to the same term."""

from __future__ import annotations

import asyncio

from bot.discord_app.app import GlossaryBot
from bot.glossary.interchange import export_bytes
from bot.storage import Store
from bot.term_storage import read_terms

from .conftest import Scene
from .helpers import define, embed_of
from .term_commands import open_add, open_edit, run_import, submit

EMBEDDING_WITHIN = 300.0  # a bound on a hang, not a speed claim (test_term_meaning's)
RAID = {
    "title": "Raid",
    "definition": (
        "Our weekly group event where twenty players fight the hardest bosses of the game "
        "together, on Thursday nights."
    ),
    "boundary": "",
    "other_names": "",
    "related": "",
}
POLICE = "a police raid on a house or a business"
DISKS = "RAID disks, drives mirrored in a storage array"
# Asked in the other sense: a card for the server's Raid without its senses (main's answer).
ELSEWHERE = "what does a raid mean in police work"
HERE = "how many players join a raid"  # the server's own sense


async def card_title(scene: Scene, query: str) -> str | None:
    _, message = await define(scene.fake, scene.alice, query, scene.channel)
    return embed_of(message)["title"] if message["embeds"] else None


async def embedded(bot: GlossaryBot, scene: Scene) -> None:
    local = await asyncio.wait_for(bot.state.servers.embedded(scene.guild.id), EMBEDDING_WITHIN)
    assert local.complete


async def test_a_term_s_other_sense_gets_no_card_and_its_own_sense_keeps_it(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    opened = await open_add(
        scene, scene.moderator, category="Agents & Interfaces", other_senses=f"{POLICE}; {DISKS}"
    )
    answer = await submit(scene, scene.moderator, opened, RAID)
    assert answer["content"].startswith("Added **Raid**"), answer
    [stored] = await read_terms(store, scene.guild.id)
    assert stored.other_senses == (POLICE, DISKS)
    await embedded(bot, scene)
    _, offered = await define(scene.fake, scene.alice, ELSEWHERE, scene.channel)
    assert not offered["embeds"], offered  # offered, not carded
    assert "Raid" in str(offered["components"])
    assert await card_title(scene, HERE) == "Raid"

    # /term edit: the option left out keeps them; "-" clears them, and the card is back.
    opened = await open_edit(scene, scene.moderator, "Raid")
    await submit(scene, scene.moderator, opened, RAID)
    [kept] = await read_terms(store, scene.guild.id)
    assert kept.other_senses == (POLICE, DISKS)
    cleared = await scene.fake.slash(
        scene.moderator, "term edit", {"term": "Raid", "other_senses": "-"}, channel=scene.channel
    )
    assert (await cleared.response())["type"] == 9
    await submit(scene, scene.moderator, cleared, RAID)
    [bare] = await read_terms(store, scene.guild.id)
    assert bare.other_senses == ()
    await embedded(bot, scene)
    assert await card_title(scene, ELSEWHERE) == "Raid"  # main's answer: the test's first fail


async def test_a_sense_of_one_word_is_refused_with_the_field_named(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    opened = await open_add(
        scene, scene.moderator, category="Agents & Interfaces", other_senses="police"
    )
    answer = await submit(scene, scene.moderator, opened, RAID)
    assert "Other senses: an other sense of one word ('police')" in answer["content"], answer
    assert await read_terms(store, scene.guild.id) == []


async def test_the_export_carries_the_senses_into_another_server(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    opened = await open_add(
        scene, scene.moderator, category="Agents & Interfaces", other_senses=POLICE
    )
    await submit(scene, scene.moderator, opened, RAID)
    exported = await scene.fake.slash(scene.moderator, "term export", {}, channel=scene.channel)
    message = await exported.final_message()
    data = scene.fake.attachment_bytes(message["attachments"][0])
    assert data == export_bytes(await read_terms(store, scene.guild.id))
    assert f'other_senses = ["{POLICE}"]' in data.decode()
    again = await run_import(
        scene,
        scene.fake.add_attachment("terms.toml", data),
        user=scene.other_moderator,
        channel=scene.other_channel,
    )
    assert again.startswith("Imported: 1 added"), again
    [there] = await read_terms(store, scene.other_guild.id)
    assert there.other_senses == (POLICE,)
