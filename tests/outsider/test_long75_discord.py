"""Task long75 through the fake Discord: a member's long message (up to Discord's 2,000
characters) asking outright what a name is in its middle, past the first 300 characters the
search reads and before the last 300 the mention's end is read at (`define._read_end`), got
Training Goodput's card on c7914483 (its start, chat about a cluster's timeouts, read as that
entry); now the name asked's card (`SearchIndex._asked_outright_carded`). A reply
under the bot's card that names it only by its ping is still read at its start alone
(test_outsider56)."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.helpers import embed_of

from .conftest import Scene
from .test_round29 import _next_answer

_CHATTER = (
    "so yesterday we were moving the whole team's notebooks over to the new cluster and honestly "
    "it was a mess, half the env files were missing and nobody remembered which version the old "
    "box had, plus the shared drive kept timing out whenever two people pulled at once. "
)


async def test_a_question_in_the_middle_of_a_long_message_opens_its_card(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    me = scene.fake.bot.mention
    said = f"{me} " + _CHATTER * 3 + "what is a mixture of experts? " + _CHATTER * 4
    assert 1_500 < len(said) <= 2_000
    at = said.index("what is a mixture")
    assert 300 < at < len(said) - 300
    asked = await scene.fake.user_message(scene.alice, scene.channel, said)
    replied_to, answer = await _next_answer(scene)
    assert replied_to == asked["id"], answer
    assert answer["embeds"], answer["content"]
    assert embed_of(answer)["title"] == "Mixture of Experts (MoE)", answer
    await store.flush()
    assert await store.top_misses(scene.guild.id) == []
