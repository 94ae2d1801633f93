"""left53 (tests/outsider/PLAN.md, "Leftovers (left53)"): outsider50's, review53's and
review54's "found and left", each fix's test failing before it."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import is_ephemeral

from .conftest import Scene
from .test_outsider49 import SUGGESTED, rejected_after


async def test_a_dm_refused_by_rate_limits_is_said_rate_limited_not_unanswered(
    scene: Scene, bot: GlossaryBot
) -> None:
    """outsider50's leftover: Discord answered the member's DM five times with its 429 (its
    body, headers and Via, as `fake.rate_limit` serves past a bucket), discord.py's retries
    were spent and it raised; the moderator read "Discord did not answer", where Discord did
    answer. Now the answer says the bot was rate-limited."""
    fake = scene.fake
    dm = "POST", "/channels/{channel_id}/messages"

    said = await rejected_after(scene, lambda: fake.fail_next(*dm, status=429, times=5))
    assert (
        "Rejected the suggestion; the member could not be told (Discord rate-limited the bot)."
        in (said)
    ), said
    assert [f.status for f in fake.faults.served if f.path == dm[1]] == [429] * 5
    assert "did not answer" not in said


async def test_a_refused_suggestion_gives_back_a_definition_at_the_forms_cap_whole(
    scene: Scene, bot: GlossaryBot
) -> None:
    """review54's leftover: a `/suggest` form refused at its submit (here the cooldown: two
    forms opened, the first queued) gave what was typed back in one message, fitted to 2,000
    characters; a definition at the form's cap (2,000, more once its Markdown is made inert)
    lost its end there. Now the answer says so and the whole text comes back in a file."""
    fake, alice = scene.fake, scene.alice
    first = await fake.slash(alice, "suggest", {"term": "zorblax"}, channel=scene.channel)
    await first.response()
    second = await fake.slash(alice, "suggest", {"term": "quuxwidget"}, channel=scene.channel)
    await second.response()
    queued = await fake.submit_modal(alice, first, SUGGESTED)
    assert (await queued.final_message())["content"].startswith("Thanks!")

    words = "A *starred* <word> and `code`, then the end of the line.\n"
    definition = (words * 40)[:1990] + "THE-END."
    refused = await fake.submit_modal(alice, second, {"definition": definition})
    said = await refused.final_message()
    content = str(said["content"])
    assert content.startswith("You made a suggestion here a moment ago"), content
    assert is_ephemeral(said)
    assert len(content) <= 2000
    assert "THE-END" not in content  # the message could not hold it: the file does
    assert "attached file" in content, content
    [attached] = said["attachments"]
    given = fake.attachment_bytes(attached).decode("utf-8")
    assert "quuxwidget" in given
    assert definition in given
