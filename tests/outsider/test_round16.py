"""What a sixteenth round of outside testing found: a server's life over months and Discord as
it really behaves (forwarded messages and polls, permissions that change while a form is open),
through the real bot against the fake Discord (tests/outsider/PLAN.md, round 16)."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import embed_of

from .conftest import Scene

POLL = {
    "question": {"text": "Should we add RAG to the support bot?"},
    "answers": [
        {"answer_id": 1, "poll_media": {"text": "Yes, with a kv cache"}},
        {"answer_id": 2, "poll_media": {"text": "No"}},
    ],
    "expiry": "2030-01-01T00:00:00+00:00",
    "allow_multiselect": False,
    "layout_type": 1,
}


def explained(message: dict[str, object]) -> str:
    return str(embed_of(message)["description"])


async def test_explain_terms_reads_a_forwarded_message(scene: Scene, bot: GlossaryBot) -> None:
    """Plan line Z24: a member forwards a message ("we keep the kv cache warm before RAG") to
    another channel and a reader runs Explain terms on the forward. Discord sends the forward
    with no text of its own, the forwarded text in its snapshot: the bot answered "I found no
    glossary terms in that message". Now it reads the snapshot as the message's text."""
    fake = scene.fake
    original = await fake.user_message(
        scene.alice, scene.other_channel, "we keep the kv cache warm before RAG"
    )
    forward = await fake.user_message(scene.alice, scene.channel, "", forward_of=original)
    answer = await (await fake.message_command(scene.alice, "Explain terms", forward)).final_message()
    lines = explained(answer)
    assert "KV Cache" in lines and "Retrieval-Augmented Generation" in lines, answer


async def test_explain_terms_reads_a_poll(scene: Scene, bot: GlossaryBot) -> None:
    """Plan line Z25: a poll ("Should we add RAG to the support bot?", answers "Yes, with a kv
    cache", "No") is a message with no content: Explain terms said it found no terms. Now the
    question and the answers are read as the poll's text."""
    fake = scene.fake
    poll = await fake.user_message(scene.bob, scene.channel, "", poll=POLL)
    answer = await (await fake.message_command(scene.alice, "Explain terms", poll)).final_message()
    lines = explained(answer)
    assert "KV Cache" in lines and "Retrieval-Augmented Generation" in lines, answer
