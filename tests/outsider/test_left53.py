"""left53 (tests/outsider/PLAN.md, "Leftovers (left53)"): outsider50's, review53's and
review54's "found and left", each fix's test failing before it."""

from __future__ import annotations

import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.helpers import is_ephemeral
from tests.discord_app.term_commands import add_term

from .conftest import Scene
from .test_outsider49 import SUGGESTED, rejected_after, suggested


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


async def test_a_term_written_accepts_a_waiting_look_alike_of_its_name_not_its_plural(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """review53's leftover: a term or alias written accepts the waiting suggestions of its name
    (`waiting_named`), compared by search's key only. Alice's "Zоrblax" (a Cyrillic о) waits;
    a moderator adds "Zorblax": no moderator could accept hers (a look-alike of a name is
    refused) and no reader can tell the two apart, yet it stayed in the queue. Now it is
    accepted with the term. Bob's "gas" stays beside an added "GA": another number is not the
    same thing ("gas" is not gas of "GA"), so a moderator decides it."""
    await suggested(scene, scene.alice, "Z\u043erblax")
    await suggested(scene, scene.bob, "gas")
    term = {
        "title": "Zorblax",
        "definition": "The made-up zorblax of this test server.",
        "boundary": "",
        "other_names": "GA",
        "related": "",
    }
    answer = await add_term(scene, term)
    assert answer["content"].startswith("Added **Zorblax**"), answer
    assert "Also accepted 1 suggestion of that name; its member was told" in answer["content"]
    assert [s.title for s in await store.open_suggestions(scene.guild.id)] == ["gas"]


async def test_a_greek_name_waiting_is_not_accepted_with_the_latin_letter_it_looks_like(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """review57: Alice suggests "ρ" (Spearman's rho), Bob "τ" (Kendall's tau); a
    moderator adds "p-value" with the other names "p" and "t". Each Greek letter shares a
    look-alike key with its Latin one, and both were accepted with the p-value card, their
    members told "added" of a name that opens nothing. A name wholly in another script is its
    own name: both stay for a moderator to decide."""
    await suggested(scene, scene.alice, "\u03c1")
    await suggested(scene, scene.bob, "\u03c4")
    term = {
        "title": "p-value",
        "definition": "The chance of a result at least this extreme if nothing were there.",
        "boundary": "",
        "other_names": "p, t",
        "related": "",
    }
    answer = await add_term(scene, term)
    assert answer["content"].startswith("Added **p-value**"), answer
    assert "Also accepted" not in answer["content"], answer["content"]
    assert sorted(s.title for s in await store.open_suggestions(scene.guild.id)) == [
        "\u03c1",
        "\u03c4",
    ]


async def test_a_suggestion_refused_before_it_is_deferred_attaches_the_whole_text_too(
    scene: Scene, bot: GlossaryBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same, in the interaction's own response (no database: refused before the answer
    is deferred), a multipart callback: the file comes with it."""
    fake = scene.fake
    opened = await fake.slash(scene.alice, "suggest", {"term": "quuxwidget"}, channel=scene.channel)
    await opened.response()
    monkeypatch.setattr(bot.state, "store", None)
    definition = ("Some <words> with *marks* in them, " * 60)[:1990] + "THE-END."
    refused = await fake.submit_modal(scene.alice, opened, {"definition": definition})
    said = await refused.final_message()
    assert is_ephemeral(said)
    assert "attached file" in str(said["content"]), said["content"]
    [attached] = said["attachments"]
    assert definition in fake.attachment_bytes(attached).decode("utf-8")
