"""outsider52: outsider round 35 (PLAN.md, "Outsider round 35 (outsider52)"). A glossary
maintainer, a member and a self-hoster who have never seen the code; the real bot process
against the fake Discord, real files."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

from bot.cards.text import LINK_ASKED
from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import buttons, define, is_ephemeral
from tests.fake_discord import FakeDiscord
from tests.resilience.botproc import BotProcess

from .conftest import Scene
from .test_round26 import _missed

# Addresses members paste, whose words name entries (a page about the term).
WORDY_LINKS = (
    "https://en.wikipedia.org/wiki/Retrieval-augmented_generation",
    "https://huggingface.co/docs/transformers/kv_cache",
    "https://example.com/rag",
    # ablate56: one whose address the search read as a card (vLLM's), not only offers
    "https://github.com/vllm-project/vllm",
)

# `glossary-bot run` whose reload (SIGHUP) takes as long as a maintainer's first reload of a
# few thousand new entries, which embeds each (minutes on a loaded machine): it says so, then
# holds until the process ends. BotProcess runs it as a prefix; the command it appends is this
# script's arguments, ignored.
_RELOAD_THAT_HOLDS = """
import sys, threading
from bot import cli
from bot.discord_app.state import BotState

def holding(self):
    print("outsider52: reload under way", flush=True)
    threading.Event().wait()

BotState._prepare = holding
sys.exit(cli.main(["run"]))
"""


async def test_a_stop_during_a_long_reload_keeps_to_its_deadline(tmp_path: Path) -> None:
    """P2: a maintainer's 2 MB file of 6,000 new entries, reloaded by SIGHUP, embeds them all
    in a thread; a SIGTERM meanwhile wrote the counts and then waited for that thread (asyncio
    joins its default executor at exit, without bound): the bot did not stop for minutes,
    past a container's grace, where the README promises 7 s. The reload now runs on a daemon
    thread of its own, which the stop does not wait for."""
    wrapper = tmp_path / "reload_that_holds.py"
    wrapper.write_text(_RELOAD_THAT_HOLDS, "utf-8")
    async with FakeDiscord(shard_count=1) as fake:
        bot = BotProcess(
            fake, tmp_path / "bot.db", cwd=tmp_path, prefix=[sys.executable, str(wrapper)]
        )
        async with bot:
            bot.send_signal(signal.SIGHUP)
            await bot.wait_for_output("outsider52: reload under way")
            code = await bot.stop(within=20)  # bounds a hang: the stop's own deadline is 7 s
    assert code == 0, bot.output
    assert "flushing counts" in bot.output


async def test_a_link_whose_address_has_a_terms_words_names_no_term(
    scene: Scene, bot: GlossaryBot
) -> None:
    """P4: a link alone names no term (README): said privately, the link not repeated in
    public, no missed search. A link whose address holds an entry's words (a page about it)
    got "Did you mean one of these for “https[:]//en[.]wikipedia[.]org/wiki/…”?" in public
    with offers, the address echoed in the channel, by `/define` and by a mention alike:
    the offers came before the link was noticed."""
    fake = scene.fake
    for link in WORDY_LINKS:
        _, answer = await define(fake, scene.alice, link, scene.channel)
        assert is_ephemeral(answer), (link, answer)
        assert answer["content"] == LINK_ASKED, (link, answer)
        assert buttons(answer) == {}, (link, answer)
        await fake.user_message(scene.bob, scene.channel, f"{fake.bot.mention} {link}")
        said = await fake.wait_for_channel_message(scene.channel)
        assert said["content"] == LINK_ASKED, (link, said)
        assert buttons(said) == {}, (link, said)
    assert await _missed(scene) == "None. 🎉"
