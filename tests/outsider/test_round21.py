"""What a twenty-first round of outside testing found: Discord's own text in a member's hand
(custom emoji, masked links, code fences) through every door the bot has, and a self-hoster's
container and its env file (tests/outsider/PLAN.md, round 21)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.helpers import CHANNEL_MESSAGE, buttons
from tests.resilience.botproc import CLI_ENV, glossary_bot_run

from .conftest import Scene
from .test_round7 import title_of


async def explained(scene: Scene, text: str) -> str:
    """What "Explain terms" lists for a message `text` of bob's, as alice sees it."""
    fake = scene.fake
    said = await fake.user_message(scene.bob, scene.channel, text)
    answer = await (await fake.message_command(scene.alice, "Explain terms", said)).final_message()
    embeds = answer.get("embeds") or []
    return str(embeds[0]["description"]) if embeds else str(answer.get("content"))


async def test_explain_terms_lists_only_what_a_reader_sees(scene: Scene, bot: GlossaryBot) -> None:
    """Plan lines O7, O9, O10: Discord shows a custom emoji (`<:rag:1…>`, `<a:kvcache:2…>`) as
    a picture, a masked link (`[read this](https://…/kv-cache)`) as its text, and a code block
    without its language line (```` ```rag ````). Explain terms listed RAG and KV Cache for a
    message of two emoji, LoRA for a lone `<:LoRA:…>`, KV Cache for a link's hidden target and
    RAG for a fence's language: terms nobody reading the message could see. Now the markup a
    reader does not see is blanked first, as `/define` blanks it; what they see is still read."""
    for hidden in (
        "nice <:rag:111111111111111111> and <a:kvcache:222222222222222222>",
        "<:LoRA:123456789012345678>",
        "[read this](https://x.example/kv-cache) please",
        "```rag\nprint(1)\n```",
    ):
        assert await explained(scene, hidden) == "I found no glossary terms in that message.", (
            hidden
        )
    seen = await explained(scene, "[rag](https://x.example) and `kv cache` <:lora:1234567890>")
    assert "Retrieval-Augmented Generation" in seen, seen
    assert "KV Cache" in seen, seen
    assert "LoRA" not in seen, seen


async def test_talk_in_reply_to_a_card_gets_an_answer_only_when_it_finds_one(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Plan line O4: a reply to the bot's card pings it by default, so Discord lists the bot in
    `mentions` though the text names nobody. Chatter under a card ("ok we will use this in the
    pipeline tomorrow") got a public "Did you mean" of three unrelated terms and "thanks!" the
    help line. Now such a reply is answered only with a card; written to the bot (its mention
    in the text) it is answered as before. Each message is sent after the fake has let the bot
    finish the one before (`settle`), so the next post in the channel is the answer to it."""
    fake = scene.fake
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} rag")
    card = await fake.wait_for_channel_message(scene.channel)
    assert title_of(card) == "Retrieval-Augmented Generation (RAG)", card
    for chatter in ("ok we will use this in the pipeline tomorrow", "thanks!"):
        said = await fake.user_message(scene.bob, scene.channel, chatter, reply_to=card)
        assert said["mentions"][0]["id"] == str(fake.bot.id), said  # pinged, as on Discord
    asked = await fake.user_message(scene.bob, scene.channel, "and kv cache?", reply_to=card)
    answer = await fake.wait_for_channel_message(scene.channel)
    assert answer["message_reference"]["message_id"] == asked["id"], answer.get("content")
    assert title_of(answer) == "KV Cache", answer
    written = f"{fake.bot.mention} ok we will use this in the pipeline tomorrow"
    asked = await fake.user_message(scene.bob, scene.channel, written, reply_to=card)
    answer = await fake.wait_for_channel_message(scene.channel)
    assert answer["message_reference"]["message_id"] == asked["id"], answer
    assert not answer.get("embeds"), answer  # no card for chatter: offers or "no entry", as ever


def _run(cwd: Path, **environment: str) -> subprocess.CompletedProcess[str]:
    """`glossary-bot run` in a process of its own with exactly `environment` besides CLI_ENV."""
    return glossary_bot_run({**CLI_ENV, **environment}, cwd, "run")


def test_env_file_names_as_notepad_and_hand_typing_leave_them_are_read(tmp_path: Path) -> None:
    """Plan lines O26, O27: `podman run --env-file` passes each line's name as written. An env
    file saved by Notepad starts with a byte-order mark, so the first line's setting arrived
    as `\\ufeffDISCORD_TOKEN`; `DISCORD_TOKEN = …` (spaces around `=`) as `DISCORD_TOKEN `. The
    bot said "DISCORD_TOKEN is not set", looking at a file where it plainly is. Now such a name
    counts as the setting, as `.env` reads it (and as `export NAME` already did). The token here
    carries the "Bot " prefix, so the bot stops at once, naming it, without reaching Discord."""
    for name in ("\ufeffDISCORD_TOKEN", "DISCORD_TOKEN ", " DISCORD_TOKEN"):
        done = _run(tmp_path, **{name: "Bot abc.def.ghi"})
        assert done.returncode == 2, done
        assert "DISCORD_TOKEN (from the environment) is not valid" in done.stderr, (
            name,
            done.stderr,
        )
        assert "Bot " in done.stderr, done.stderr


def test_a_misspelt_or_unknown_setting_is_one_line_naming_it(tmp_path: Path) -> None:
    """Plan lines O28, O29: `DATABSE_PATH=/data/x.db` (a typo) in `.env` or an env file, and
    `GLOSSARY_BOT_MODE=fast` (no such setting), were ignored without a word: the bot kept its
    database at the default path and the operator never learnt why theirs stayed empty. Now
    `run` says one WARNING line for each, naming it and the setting it looks like; variables of
    other programs in the environment are not named."""
    (tmp_path / ".env").write_text("DATABSE_PATH=x.db\nGLOSSARY_BOT_MODE=fast\nLOG_LEVEL=INFO\n")
    done = _run(tmp_path, LOG_LEVLE="DEBUG", GLOSSARY_FLAVOUR="x", HOSTNAME="box", TERM="xterm")
    assert done.returncode == 2, done  # no token: stops after saying so
    said = done.stderr.splitlines()
    warned = [line for line in said if "WARNING" in line]
    assert len(warned) == 4, said
    assert any("DATABSE_PATH" in line and "DATABASE_PATH" in line for line in warned), said
    assert any("LOG_LEVLE" in line and "LOG_LEVEL" in line for line in warned), said
    assert any("GLOSSARY_BOT_MODE" in line for line in warned), said
    assert any("GLOSSARY_FLAVOUR" in line for line in warned), said
    assert said[-1].startswith("glossary-bot: DISCORD_TOKEN is not set"), said


async def test_suggest_refuses_a_name_no_term_may_have_before_the_form(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Plan line O17: `/suggest term:<id:customize>` (Discord's link to Channels & Roles), a
    custom emoji or a mention opened the form; the member wrote what it means, and only the
    submit said a term's name cannot hold Discord markup. Now the refusal comes at once, as
    a full queue's does (round 18 W25), and no form opens."""
    fake = scene.fake
    for name in ("<id:customize>", "<a:zorb:123456789012345678>", "<@!123456789> zorb"):
        opened = await fake.slash(scene.bob, "suggest", {"term": name}, channel=scene.channel)
        body = await opened.response()
        assert body["type"] == CHANNEL_MESSAGE, (name, body)  # no form (9)
        assert "cannot contain" in body["data"]["content"], body
        assert "Nothing was queued" in body["data"]["content"], body


async def test_accept_opens_a_members_text_without_what_nobody_can_see(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line O15: a member's suggestion held a right-to-left override around a word (the
    review showed it without, as the bot shows any user text). Accept… filled the form with the
    text as stored, override included, and saving it refused: "Definition: definition cannot
    contain control, invisible or direction characters", which the moderator could neither see
    nor find in the box. Now the form holds the text as the review showed it."""
    fake = scene.fake
    await store.add_suggestion(
        scene.guild.id, scene.alice.id, "zorblax", "The \u202enightly\u202c rerank job, we run it."
    )
    review = await fake.slash(
        scene.moderator, "term review", {"category": "Fundamentals"}, channel=scene.channel
    )
    shown = await review.final_message()
    accept = await fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
    assert (await accept.response())["type"] == 9
    saved = await (await fake.submit_modal(scene.moderator, accept, {})).final_message()
    assert saved["content"].startswith("Added **zorblax**"), saved["content"]
