"""Review of the last session (tests/outsider/PLAN.md, "Review of the last session
(review50)"): what forged47, left47, review48, outsider48 and swap48 left open, each fix's test
failing before it."""

from __future__ import annotations

from bot.discord_app.app import OUTDATED_FORM, GlossaryBot
from bot.storage import Store
from tests.discord_app.helpers import is_ephemeral

from .conftest import Scene
from .test_forged47 import form_submitted

# --- items.inert: Discord's markup shown as typed ------------------------------------------------

# A value holding two masked links with Markdown between them, and marks that start a line after
# spaces (a quote, a heading) or a numbered list.
MARKUP = (
    "see [the docs](https://example.com/a) **now** ||later|| [click here](https://example.org/b)\n"
    "  > quoted\n"
    " # heading\n"
    "1. first"
)
SHOWN = (
    "see \\[the docs](https://example.com/a) \\*\\*now\\*\\* \\|\\|later\\|\\| "
    "\\[click here](https://example.org/b)\n"
    "  \\> quoted\n"
    " \\# heading\n"
    "1\\. first"
)


async def test_a_forms_text_given_back_shows_masked_links_and_line_marks_as_typed(
    scene: Scene, bot: GlossaryBot
) -> None:
    """`items.inert` (review48's one home) used discord.py's escape_markdown, whose masked-link
    rule escapes one "[" for a whole line from its first "[" to its last ")": what lies between
    was left as it was, so "What you typed:" rendered the bold, the spoiler and the second masked
    link ("click here" linking to an address not shown). A quote or heading after spaces and a
    numbered list rendered too. Now each mark is escaped."""
    handle = await form_submitted(scene, "gb:term-form:1", {"definition": MARKUP})
    answer = await handle.final_message()
    assert is_ephemeral(answer), answer
    content = answer["content"]
    assert content.startswith(OUTDATED_FORM), content
    assert content.endswith(f"**definition**: {SHOWN}"), content
    assert not scene.fake.pop_violations()


async def test_a_mentions_no_entry_echo_shows_markdown_between_brackets_as_typed(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """The same through `echo`, in public: "@Glossary [x](y) **zorbleflax** ||quux|| (z)" got
    "No entry for “\\[x](y) **zorbleflax** ||quux|| (z)”." as a reply, bold and a spoiler."""
    me = scene.fake.bot.mention
    await scene.fake.user_message(
        scene.alice, scene.channel, f"{me} [x](y) **zorbleflax** ||quux|| (z)"
    )
    answer = await scene.fake.wait_for_channel_message(scene.channel)
    content = answer["content"]
    assert "\\*\\*zorbleflax\\*\\* \\|\\|quux\\|\\|" in content, content
    assert "**zorbleflax**" not in content.replace("\\*", ""), content
    assert not scene.fake.pop_violations()

