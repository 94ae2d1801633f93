"""Review of ops47 and offcard47 (tests/outsider/PLAN.md, "Review of ops47 and offcard47
(review47)"): the real `glossary-bot run` against the fake Discord, its heartbeat read as
`glossary-bot health` reads it."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from bot.heartbeat import STOPPED, check_heartbeat
from bot.storage import Store
from tests.discord_app.helpers import define, embed_of
from tests.discord_app.test_term_meaning import EMBEDDING_WITHIN, put_terms
from tests.fake_discord import FakeDiscord
from tests.resilience.botproc import BotProcess
from tests.resilience.conftest import StartBot
from tests.search.gaming_server import GAMING

from .conftest import Scene

# `glossary-bot run`, sent a signal by itself while it loads its glossary: the moment comes
# from inside the load, not from a delay. BotProcess runs it as a prefix, so the command it
# appends (`python -m bot.cli run`) is this script's arguments, and ignored.
_SIGNAL_WHILE_LOADING = """
import os, signal, sys
from bot import cli
from bot.discord_app import runner

load = runner.load_served

def loading(paths):
    print("review47: {name} sent while the glossary loads", flush=True)
    os.kill(os.getpid(), signal.{name})
    return load(paths)

runner.load_served = loading
sys.exit(cli.main(["run"]))
"""


def _signalled_while_loading(
    fake: FakeDiscord, tmp_path: Path, name: str, **settings: str
) -> BotProcess:
    wrapper = tmp_path / f"{name}_while_loading.py"
    wrapper.write_text(_SIGNAL_WHILE_LOADING.replace("{name}", name), "utf-8")
    return BotProcess(
        fake,
        tmp_path / "bot.db",
        cwd=tmp_path,
        prefix=[sys.executable, str(wrapper)],
        **settings,
    )


def _an_earlier_runs_stop(heartbeat: Path) -> float:
    """The heartbeat file as a run stopped an hour ago left it; the time this run starts."""
    heartbeat.write_text(f"{STOPPED}{time.time() - 3600:.0f}\n", "utf-8")
    return time.time()


def _stopped_since(heartbeat: Path, started: float) -> None:
    first = heartbeat.read_text("utf-8").splitlines()[0]
    assert first.startswith(STOPPED), first
    assert float(first.removeprefix(STOPPED).split()[0]) >= int(started), first  # this run's


async def test_a_reload_asked_while_the_glossary_loads_is_done_not_the_end(
    tmp_path: Path,
) -> None:
    """README: `kill -HUP` reloads GLOSSARY_PATHS. auto43 took SIGHUP before Discord is asked
    its shard count, but reading the settings and the glossary comes first (some seconds on a
    loaded machine: 3-4 s measured here): a SIGHUP then killed the process by the signal's
    default action, silently (exit by signal, no line; `docker kill -s HUP` right after a
    restart, or a reload sent to every process of a rolling restart). Now the reload is kept
    and done once the bot's own handlers are in place; the bot connects."""
    async with FakeDiscord(shard_count=1) as fake:
        bot = _signalled_while_loading(fake, tmp_path, "SIGHUP")
        async with bot:  # connected: not ended by the signal
            await bot.wait_for_output("SIGHUP sent while the glossary loads")
            await bot.wait_for_output("glossary reloaded: ", within=120)  # a hang's bound
            code = await bot.stop()
    assert code == 0, bot.output


async def test_ctrl_c_while_the_glossary_loads_is_a_clean_stop(tmp_path: Path) -> None:
    """README: "SIGTERM and Ctrl-C stop it gracefully (exit 0) ... and so does one still
    starting". Ctrl-C while the settings and glossary were read ended it with 130 (the CLI's
    KeyboardInterrupt), where SIGTERM then gives 0."""
    async with FakeDiscord(shard_count=1) as fake:
        bot = _signalled_while_loading(fake, tmp_path, "SIGINT")
        await bot.start(wait_ready=False)
        code = await bot.exited(within=60)
    assert "SIGINT sent while the glossary loads" in bot.output, bot.output
    assert code == 0, bot.output
    assert fake.gateway.identify_count == 0


def _no_room(heartbeat: Path) -> dict[str, str]:
    """Settings for a bot whose writes past 0 bytes fail, as on a full disk (`prlimit --fsize=0`
    as its prefix; Python ignores SIGXFSZ): bytecode is not written, the log goes to a pipe."""
    return {"HEARTBEAT_PATH": str(heartbeat), "PYTHONDONTWRITEBYTECODE": "1"}


async def test_a_stop_line_the_disk_has_no_room_for_is_not_read_as_healthy(
    tmp_path: Path,
) -> None:
    """ops47 has the stop line written where no heartbeat was yet (a start refused). On a disk
    with no room the file is made and its text fails: an empty file, just written, which
    `health` read as "healthy: last heartbeat 0 s ago" of a bot that had stopped."""
    heartbeat = tmp_path / "heartbeat"
    async with FakeDiscord(shard_count=1) as fake:
        bot = BotProcess(
            fake,
            tmp_path / "bot.db",
            cwd=tmp_path,
            prefix=["prlimit", "--fsize=0"],
            DISCORD_TOKEN="wrong-token-Zm9vYmFyYmF6cXV4",
            **_no_room(heartbeat),
        )
        await bot.start(wait_ready=False)
        code = await bot.exited(within=30)
    assert code == 2, bot.output
    assert "cannot write the heartbeat file" in bot.output, bot.output
    healthy, said = check_heartbeat(heartbeat)
    assert not healthy, said


async def test_heartbeats_the_disk_has_no_room_for_are_not_read_as_healthy(
    tmp_path: Path,
) -> None:
    """A bot on a disk with no room (its database cannot be made, its heartbeat cannot be
    written, both logged): every beat truncated the file, then failed to write it, so the file
    stayed empty and fresh, and `health` said "healthy" as long as the bot ran."""
    heartbeat = tmp_path / "heartbeat"
    async with FakeDiscord(shard_count=1) as fake:
        bot = BotProcess(
            fake,
            tmp_path / "bot.db",
            cwd=tmp_path,
            prefix=["prlimit", "--fsize=0"],
            **_no_room(heartbeat),
        )
        async with bot:
            await bot.wait_for_output("cannot write the heartbeat file", within=60)
            healthy, said = check_heartbeat(heartbeat)
            assert not healthy, said


# A raiding guild's own words (tests/search/gaming_server.py): offcard47's rule turns a card the
# meaning does not rank, for a text leaning off the field, into an offer, unless a word only the
# field uses is written; these texts are far from the field.
ASKED_ABOUT = [
    ("what does aggro mean", "Aggro"),
    ("how do i hold aggro as a tank", "Aggro"),
    ("can someone explain what a tank does in a raid?", "Tank"),
    ("explain kiting to the new guy", "Kiting"),
]


async def test_a_gaming_servers_own_terms_keep_their_cards_far_from_the_field(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """offcard47's rule reads "off the field" as far from the bundled glossary's field: on a
    gaming server every text is. Its terms' cards stay cards, by /define and by a mention
    alike (42 texts tried by hand on the index before and after offcard47: no answer moved)."""
    fake = scene.fake
    await put_terms(store, scene.guild.id, *GAMING)
    async with start_bot(store) as bot:
        await asyncio.wait_for(bot.state.servers.embedded(scene.guild.id), EMBEDDING_WITHIN)
        for text, title in ASKED_ABOUT:
            _, card = await define(fake, scene.alice, text, scene.channel)
            assert embed_of(card)["title"] == title, (text, card)
            await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} {text}")
            mentioned = await fake.wait_for_channel_message(scene.channel)
            assert embed_of(mentioned)["title"] == title, (text, mentioned)


async def test_a_server_alias_asked_about_beside_another_term_is_not_that_terms_card(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """ "mt" is this server's alias of Tank (main tank). Asked "what does mt mean in raid chat",
    the answer was Raid's card: a confident wrong card for what the member asked. alias48:
    Tank's card (`SearchIndex._asked_over_setting`)."""
    fake = scene.fake
    await put_terms(store, scene.guild.id, *GAMING)
    await store.add_alias(scene.guild.id, "mt", "mt", "tank", actor_id=1)
    async with start_bot(store) as bot:
        await asyncio.wait_for(bot.state.servers.embedded(scene.guild.id), EMBEDDING_WITHIN)
        _, alone = await define(fake, scene.alice, "what does mt mean", scene.channel)
        assert embed_of(alone)["title"] == "Tank", alone
        _, answer = await define(fake, scene.alice, "what does mt mean in raid chat", scene.channel)
        assert not answer["embeds"] or embed_of(answer)["title"] == "Tank", answer


async def test_explain_terms_lists_no_term_define_and_mentions_no_longer_card(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """offcard47: "embedded systems vs microcontrollers" gets no Embeddings card from /define
    or a mention (its own test). "Explain terms" on the same message lists Embeddings, with its
    summary, as a term the message names. alias48: no longer (`SearchIndex._derived_off_field`)."""
    fake = scene.fake
    text = "what's the difference between embedded systems and microcontrollers?"
    async with start_bot(store):
        _, answer = await define(fake, scene.alice, text, scene.channel)
        assert not answer["embeds"], answer  # offcard47's
        said = await fake.user_message(scene.bob, scene.channel, text)
        listing = await (
            await fake.message_command(scene.alice, "Explain terms", said)
        ).final_message()
        assert "Embeddings" not in str(listing), listing


async def test_a_start_refused_before_the_loop_says_stopped_on_an_error(tmp_path: Path) -> None:
    """ops47 has `health` say "stopped" of a bot stopped before its first heartbeat, from the
    shard question on (its "left": a start refused before the event loop). Refused earlier
    (no DISCORD_TOKEN here; a glossary with errors alike), `health` said what was there: an
    earlier run's "stopped cleanly 3600 s ago", or "starting, or never connected"."""
    heartbeat = tmp_path / "heartbeat"
    started = _an_earlier_runs_stop(heartbeat)
    async with FakeDiscord(shard_count=1) as fake:
        bot = BotProcess(
            fake, tmp_path / "bot.db", cwd=tmp_path, HEARTBEAT_PATH=str(heartbeat), DISCORD_TOKEN=""
        )
        await bot.start(wait_ready=False)
        code = await bot.exited(within=60)
    assert code == 2, bot.output
    _stopped_since(heartbeat, started)
    healthy, said = check_heartbeat(heartbeat)
    assert said.startswith("stopped: the bot stopped on an error "), said
    assert not healthy


async def test_a_stop_while_the_glossary_loads_says_stopped_cleanly(tmp_path: Path) -> None:
    """SIGTERM while the glossary loads (before the loop): exit 0, and `health` says this run
    stopped cleanly, not an earlier run's stop an hour ago."""
    heartbeat = tmp_path / "heartbeat"
    started = _an_earlier_runs_stop(heartbeat)
    async with FakeDiscord(shard_count=1) as fake:
        bot = _signalled_while_loading(fake, tmp_path, "SIGTERM", HEARTBEAT_PATH=str(heartbeat))
        await bot.start(wait_ready=False)
        code = await bot.exited(within=60)
    assert "SIGTERM sent while the glossary loads" in bot.output, bot.output
    assert code == 0, bot.output
    _stopped_since(heartbeat, started)
    healthy, said = check_heartbeat(heartbeat)
    assert said.startswith("stopped: the bot stopped cleanly "), said
    assert not healthy
