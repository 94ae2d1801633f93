"""Every bundled entry's card fits Discord's limits, full and in plain words."""

from __future__ import annotations

from bot import limits
from bot.cards.embed import render_card
from bot.discord_app.app import GlossaryBot
from bot.discord_app.replies import card_view
from bot.discord_app.state import BotState
from bot.glossary import Entry, Glossary
from tests.fake_discord.validation import check_message

from .conftest import Scene
from .helpers import UPDATE_MESSAGE, buttons, define, embed_of

OWNER = 2**63 - 1  # the longest user id a custom id must still carry


def _size(entry: Entry) -> int:
    texts = [entry.summary, entry.definition, entry.boundary or "", entry.plain or ""]
    texts += [s.definition for s in entry.sources] + [n.text for n in entry.notes]
    return sum(len(t) for t in texts)


def test_every_card_fits_discords_limits(glossary: Glossary) -> None:
    state = BotState(glossary, None)
    for entry in glossary:
        for plain in (False, True):
            embed = render_card(
                entry,
                glossary,
                matched=f'matched "{entry.title}" as a typo',
                lookups=123_456,
                plain=plain,
            )
            view = card_view(state.glossary, entry, OWNER, plain=plain)
            body = {"embeds": [embed.to_dict()], "components": view.to_components()}
            problems = check_message(body)
            assert problems == [], f"{entry.id} (plain={plain}): {problems}"
            assert len(embed) <= limits.EMBED_TOTAL
            assert embed.title
            assert embed.description


async def test_the_longest_cards_go_through_discord(
    scene: Scene, bot: GlossaryBot, glossary: Glossary
) -> None:
    """The fake checks what the bot actually sends: any limit broken fails the test."""
    fake = scene.fake
    longest = sorted(glossary, key=_size, reverse=True)[:4]
    with_plain = sorted((e for e in glossary if e.plain), key=_size, reverse=True)[:2]
    for entry in [*longest, *with_plain]:
        _, card = await define(fake, scene.alice, entry.id, scene.channel)
        assert embed_of(card)["title"] == entry.display_title
        if entry.plain:
            click = await fake.click(scene.alice, card, buttons(card)["Plain words"])
            assert (await click.response())["type"] == UPDATE_MESSAGE
            shown = embed_of(await click.final_message())
            assert shown["description"].startswith("**In plain words:**")
