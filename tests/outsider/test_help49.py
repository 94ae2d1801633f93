"""help49 (issue #12, "never a confident wrong card"): everyday words spelled near an entry's
name, through the bot as members use it. On main be49dc9 `/define refill` answered with
Prefill's card, and "decade", "sensor", "cows" and "pals" were offered Decode, Tensor, CoWoS
and PALI; a mention answered the same. Now the fuzzy stage does not offer a longer name for a
common English word that is no form of it (`similarity.everyday_word`), and the prefix stage
reads no common plural as a one-word name's start (`_names_whole_word`). "Explain terms"
listed none of them before either: it reads names, not look-alikes."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import define, embed_of

from .conftest import Scene

LOOK_ALIKES = {
    "refill": "Prefill",
    "decade": "Decode",
    "sensor": "Tensor",
    "cows": "Chip-on-Wafer-on-Substrate",
    "pals": "PALI",
}


async def test_an_everyday_word_is_neither_carded_nor_offered_its_look_alike(
    scene: Scene, bot: GlossaryBot
) -> None:
    fake = scene.fake
    for word, title in LOOK_ALIKES.items():
        _, answer = await define(fake, scene.alice, word, scene.channel)
        assert not answer["embeds"], (word, answer)
        assert title not in str(answer), (word, answer)
        await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} {word}")
        posted = await fake.wait_for_channel_message(scene.channel)
        assert not posted["embeds"], (word, posted)
        assert title not in str(posted), (word, posted)
    said = await fake.user_message(
        scene.bob, scene.channel, "a decade ago we docked, refilled the sensor and fed the cows"
    )
    explained = await fake.message_command(scene.alice, "Explain terms", said)
    listing = await explained.final_message()
    for title in LOOK_ALIKES.values():
        assert title not in str(listing), listing


async def test_a_typo_of_a_name_and_a_form_of_one_keep_their_cards(
    scene: Scene, bot: GlossaryBot
) -> None:
    fake = scene.fake
    for typed, title in (("pytoch", "PyTorch"), ("decoded", "Decode"), ("embedings", "Embeddings")):
        _, answer = await define(fake, scene.alice, typed, scene.channel)
        assert embed_of(answer)["title"] == title, (typed, answer)
        await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} {typed}")
        posted = await fake.wait_for_channel_message(scene.channel)
        assert embed_of(posted)["title"] == title, (typed, posted)
