"""ops49: operations leftovers (PLAN.md, "Operations leftovers (ops49)"). The real bot process
against the fake Discord, real files; each bot in a pid namespace of its own (unshare), as in a
container, where every bot is pid 1."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from bot.discord_app import runner
from bot.heartbeat import check_heartbeat
from tests.fake_discord import FakeDiscord
from tests.resilience.botproc import BotProcess

from .test_left48 import refused_beside

SHARED = "this one's stop is not written over it"


def as_pid_1() -> list[str]:
    """A command prefix that runs the command as pid 1 of a pid namespace of its own (a user
    namespace too, so no root is needed), as a container's entrypoint runs; unshare ending
    first (a test that failed) ends it too (`--kill-child`)."""
    unshare = shutil.which("unshare")
    prefix = [unshare or "unshare", "--user", "--map-root-user", "--pid", "--fork"]
    prefix.append("--kill-child=SIGTERM")
    if unshare is None or subprocess.run([*prefix, "true"], check=False).returncode != 0:
        pytest.skip("no unshare with user and pid namespaces: no second pid 1 to be had")
    return prefix


class Pid1Bot(BotProcess):
    """A bot under `as_pid_1`. unshare forwards no signal: a stop is sent to the bot itself,
    unshare's child (its exit status is unshare's)."""

    async def stop(self, sig: int | None = signal.SIGTERM, within: float = 30.0) -> int:
        assert self.process is not None
        if self.process.returncode is None and sig is not None:
            for child in _children(self.process.pid):
                os.kill(child, sig)
        return await super().stop(None, within)


def _children(pid: int) -> list[int]:
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _folder(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    return folder


async def test_two_bots_each_pid_1_on_one_host_tell_each_other_apart(tmp_path: Path) -> None:
    """review49: two containers on one volume, the database and HEARTBEAT_PATH on it. Both bots
    are "pid 1 on vm": the second, refused (the SQLite file is the first's), read the running
    bot's heartbeat as its own and wrote "stopped ... on an error" over it (`health`: the bot
    stopped), and its refusal named the holder "glossary-bot all shards pid 1 on vm", as it
    would name itself. Now each process has a run id beside pid and host: the refusal names the
    first's (the one its log gave at start), and the heartbeat is left to its running owner."""
    prefix = as_pid_1()
    heartbeat = tmp_path / "heartbeat"
    async with (
        FakeDiscord(shard_count=1) as fake,
        Pid1Bot(
            fake,
            tmp_path / "bot.db",
            cwd=_folder(tmp_path, "first"),
            prefix=prefix,
            HEARTBEAT_PATH=str(heartbeat),
        ) as first,
    ):
        await first.wait_for_output("healthy: heartbeat in", within=60)
        second = Pid1Bot(
            fake,
            tmp_path / "bot.db",
            cwd=_folder(tmp_path, "second"),
            prefix=prefix,
            HEARTBEAT_PATH=str(heartbeat),
        )
        await refused_beside(first, second, heartbeat, SHARED)
        [run] = re.findall(r"starting as pid 1 on \S+ run (\w+)", first.output)
        [refusal] = [line for line in second.lines if "one bot per file" in line]
        assert re.search(rf"\(glossary-bot all shards pid 1 on \S+ run {run}\)", refusal), refusal
        [own] = re.findall(r"starting as pid 1 on \S+ run (\w+)", second.output)
        assert own != run
        assert await first.stop() == 0, first.output
    _, said = check_heartbeat(heartbeat)
    assert said.startswith("stopped: the bot stopped cleanly"), said  # its own beat: its stop


def test_a_holder_name_carries_the_run_id_and_a_long_host_cuts_it_first() -> None:
    """Item 1's holder name: the run id after pid and host, where it fits whole with some of
    the shards; past that (a long host, a pod's, which tells processes apart), as before."""
    named = runner.holder_name([0, 1], 1, "vm", "1a2b3c4d")
    assert named == "glossary-bot shards 0,1 pid 1 on vm run 1a2b3c4d"
    assert runner.holder_name(None, 1, "vm", "1a2b3c4d") == (
        "glossary-bot all shards pid 1 on vm run 1a2b3c4d"
    )
    cut = runner.holder_name(range(0, 400, 3), 1, "vm", "1a2b3c4d")
    assert cut == "glossary-bot shards 0,3,6,9,12,15,… pid 1 on vm run 1a2b3c4d", cut
    pod = "bot-7d9f8c6b5-x2x9k"
    assert runner.holder_name(range(0, 400, 3), 1, pod, "1a2b3c4d") == (
        runner.holder_name(range(0, 400, 3), 1, pod)
    )
    for ids in (None, range(150), range(0, 400, 3)):
        for length in range(1, 64):
            name = runner.holder_name(ids, 4194304, "h" * length, "1a2b3c4d")
            assert len(name.encode()) <= runner.HOLDER_BYTES, name
            assert " run " not in name or name.endswith(" run 1a2b3c4d"), name
