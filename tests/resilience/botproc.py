"""`glossary-bot run` in a process of its own, against a fake Discord in the test's process.

Used by the fault tests that need a real process (signals, kill -9, file permissions, the
log at DEBUG) and by bench/load_test.py. The process's stdout and stderr are read as they come:
``wait_for_output`` wakes on each new line, it does not poll.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import resource
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from tests.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
# What the command-line tests run `glossary-bot` with: this checkout's code, no glossary of the
# developer's (each test names its own) and none of their tools on PATH.
CLI_ENV = {"PYTHONPATH": str(ROOT), "GLOSSARY_PATHS": "", "PATH": "/usr/bin:/bin"}
# Settings of the developer's shell that must not leak into a test's bot.
_OURS = (
    "DISCORD_",
    "DATABASE_",
    "GLOSSARY_",
    "COOLDOWN_",
    "LOG_",
    "HEARTBEAT_",
    "DEV_GUILD",
    "METRICS_",
)


def bot_env(fake: FakeDiscord, db_path: Path, **settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(_OURS)}
    env.update(
        PYTHONPATH=str(ROOT),
        PYTHONUNBUFFERED="1",
        # A process that will not stop is sent SIGABRT: this prints where every thread was.
        PYTHONFAULTHANDLER="1",
        DISCORD_TOKEN=fake.token,
        DISCORD_API_BASE_URL=fake.api_base,
        DISCORD_GATEWAY_URL=fake.gateway_url,
        DATABASE_PATH=str(db_path),
        GLOSSARY_PATHS="",
        LOG_LEVEL="INFO",
    )
    env.update(settings)
    return env


class BotProcess:
    """One run of the bot. ``async with BotProcess(...) as bot`` starts it and waits until it
    has identified and synced its commands; leaving the block stops it (SIGTERM) if it runs."""

    def __init__(
        self,
        fake: FakeDiscord,
        db_path: Path,
        *,
        cwd: Path,
        prefix: Sequence[str] = (),
        start_timeout: float = 30.0,
        shards: Sequence[int] | None = None,
        **settings: str,
    ) -> None:
        self.fake = fake
        self.db_path = db_path
        self.cwd = cwd
        self.prefix = list(prefix)  # e.g. setpriv, to run without root's permission override
        self.env: Mapping[str, str] = bot_env(fake, db_path, **settings)
        self.start_timeout = start_timeout
        # The shards this process runs (SHARD_IDS), when other processes run the others.
        self.shards = shards
        self.process: asyncio.subprocess.Process | None = None
        self.lines: list[str] = []  # stdout and stderr, in arrival order
        self._changed = asyncio.Condition()
        self._readers: list[asyncio.Task[None]] = []
        self._ended_streams = 0

    # -- lifecycle ------------------------------------------------------------------------------

    async def start(self, *, wait_ready: bool = True) -> None:
        fake = self.fake
        identifies = fake.gateway.identify_count
        syncs = fake.registry.sync_counts.get(None, 0)
        self.process = await asyncio.create_subprocess_exec(
            *self.prefix,
            sys.executable,
            "-m",
            "bot.cli",
            "run",
            env=dict(self.env),
            cwd=self.cwd,  # not the checkout: no developer's .env is read
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        assert self.process.stdout is not None
        assert self.process.stderr is not None
        self._readers = [
            asyncio.create_task(self._read(self.process.stdout)),
            asyncio.create_task(self._read(self.process.stderr)),
        ]
        if not wait_ready:
            return

        def ready() -> bool:
            gateway = fake.gateway
            connected = (
                gateway.ready_sent and gateway.connected
                if self.shards is None
                else all(gateway.shard_ready(shard) for shard in self.shards)
            )
            return (
                gateway.identify_count > identifies
                and connected
                and fake.registry.sync_counts.get(None, 0) > syncs
            )

        waiting = asyncio.create_task(
            fake.waiter.wait_for(ready, "the bot process to connect", within=self.start_timeout)
        )
        exited = asyncio.create_task(self.process.wait())
        await asyncio.wait({waiting, exited}, return_when=asyncio.FIRST_COMPLETED)
        if not waiting.done():
            waiting.cancel()
            raise RuntimeError(f"the bot exited while starting:\n{self.output}")
        exited.cancel()
        if waiting.exception() is not None:
            raise AssertionError(f"{waiting.exception()}; the bot printed:\n{self.output}")

    async def _read(self, stream: asyncio.StreamReader) -> None:
        while line := await stream.readline():
            async with self._changed:
                self.lines.append(line.decode("utf-8", "replace").rstrip("\n"))
                self._changed.notify_all()
        async with self._changed:
            self._ended_streams += 1
            self._changed.notify_all()

    def send_signal(self, sig: int) -> None:
        assert self.process is not None
        self.process.send_signal(sig)

    async def stop(self, sig: int | None = signal.SIGTERM, within: float = 30.0) -> int:
        """Signal the process (unless it already ended, or `sig` is None: a test that signalled
        it already, since a second SIGTERM can land after the stop has let go of its handler
        and kill the process) and wait for it and its output."""
        assert self.process is not None
        if self.process.returncode is None and sig is not None:
            self.process.send_signal(sig)
        code = await self.exited(within, f"of signal {sig or 'sent before'}")
        # The fake notices the closed socket on its own time; later starts wait for it.
        await self.fake.waiter.wait_for(self._disconnected, "the bot's connection to close")
        return code

    async def exited(self, within: float = 30.0, after: str = "") -> int:
        """Wait for the process to end by itself (and for all it printed); its exit status."""
        assert self.process is not None
        try:
            async with asyncio.timeout(within):
                code = await self.process.wait()
                await asyncio.gather(*self._readers)
        except TimeoutError:
            if self.process.returncode is None:
                self.process.send_signal(signal.SIGABRT)  # faulthandler dumps every thread
                async with asyncio.timeout(10):
                    await self.process.wait()
                    await asyncio.gather(*self._readers)
            raise AssertionError(
                f"the bot did not stop within {within} s {after}:\n{self.output}"
            ) from None
        return code

    def _disconnected(self) -> bool:
        live = self.fake.gateway.live_shards()
        return not live if self.shards is None else not live.intersection(self.shards)

    async def __aenter__(self) -> BotProcess:
        try:
            await self.start()
        except BaseException:
            await self.__aexit__()  # no process left running behind a failed start
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.process is not None and self.process.returncode is None:
            await self.stop()

    # -- what it said ---------------------------------------------------------------------------

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    async def wait_for_output(self, pattern: str, within: float = 15.0, count: int = 1) -> str:
        """The `count`th line matching ``pattern`` (a regex), waiting for it to be printed."""
        regex = re.compile(pattern)

        def found() -> str | None:
            matches = (line for line in self.lines if regex.search(line))
            return next(itertools.islice(matches, count - 1, None), None)

        try:
            async with asyncio.timeout(within), self._changed:
                await self._changed.wait_for(
                    lambda: found() is not None or self._ended_streams == 2
                )
        except TimeoutError:  # what it did print says why
            raise AssertionError(
                f"the bot printed no {pattern!r} (#{count}) within {within} s:\n{self.output}"
            ) from None
        match = found()
        if match is None:
            raise AssertionError(f"the bot ended without printing {pattern!r}:\n{self.output}")
        return match

    def cpu_seconds(self) -> float | None:
        """User plus system CPU time the process has used so far (Linux)."""
        if self.process is None:
            return None
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return None
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks

    def rss_kib(self) -> int | None:
        """Resident memory of the process now (Linux), in KiB."""
        if self.process is None:
            return None
        try:
            status = Path(f"/proc/{self.process.pid}/status").read_text()
        except OSError:
            return None
        found = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
        return int(found.group(1)) if found else None


async def glossary_bot(env: Mapping[str, str], cwd: Path, *args: str) -> tuple[int, str]:
    """Run another `glossary-bot` command (`health`, `aliases import`, ...) in a process of its
    own, as an operator would beside the bot: its exit status and output."""
    command = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        *args,
        env=dict(env),
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(command.communicate(), timeout=60)
    assert command.returncode is not None
    return command.returncode, output.decode()


def glossary_bot_waited(
    env: Mapping[str, str], cwd: Path, *args: str, file_size_limit: int | None = None
) -> tuple[int, str]:
    """`glossary_bot` from a test that is not async, its stderr read through a pipe, the disk
    filling up at `file_size_limit` bytes a file (a write past it fails with EFBIG, as ENOSPC
    on a full disk)."""
    done = glossary_bot_run(env, cwd, *args, file_size_limit=file_size_limit)
    return done.returncode, done.stdout + done.stderr


def glossary_bot_run(
    env: Mapping[str, str],
    cwd: Path,
    *args: str,
    prefix: Sequence[str] = (),
    file_size_limit: int | None = None,
) -> subprocess.CompletedProcess[str]:
    """`glossary-bot ARGS` in a process of its own, waited for, stdout and stderr apart;
    `prefix` runs it under another command (`setpriv`), `file_size_limit` as above."""

    def limited() -> None:
        if file_size_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))

    # Python writes bytecode without checking the write: under the limit, a module compiled
    # there was cut and renamed into __pycache__, and every later import of it failed.
    unwritten = {} if file_size_limit is None else {"PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [*prefix, sys.executable, "-m", "bot.cli", *args],
        env={**env, **unwritten},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limited,
        check=False,
    )


async def import_aliases(document: object, db_path: Path, cwd: Path) -> tuple[int, str, str]:
    """`glossary-bot aliases import` of ``document`` (as JSON) in a process of its own, as an
    operator runs it beside the bot: (exit status, stdout, stderr)."""
    file = cwd / "aliases-to-import.json"
    file.write_text(json.dumps(document), encoding="utf-8")
    importer = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "bot.cli", "aliases", "import", str(file), "--db", str(db_path)),
        cwd=cwd,
        env={"PYTHONPATH": str(ROOT), "GLOSSARY_PATHS": "", "PATH": "/usr/bin:/bin"},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await importer.communicate()
    assert importer.returncode is not None
    return importer.returncode, out.decode(), err.decode()


# Warnings a bare `python` hides (the rest it prints on stderr).
_HIDDEN_WARNINGS = (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning)


def glossary_bot_here(env: Mapping[str, str], cwd: Path, *args: str) -> tuple[int, str]:
    """`glossary_bot_waited` run in this process (`glossary_bot_run_here`): its exit status,
    its stdout then its stderr."""
    done = glossary_bot_run_here(env, cwd, *args)
    return done.returncode, done.stdout + done.stderr


def glossary_bot_run_here(
    env: Mapping[str, str], cwd: Path, *args: str, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """`glossary_bot_run` in this process: `bot.cli.main(ARGS)` with `env` as its whole
    environment and `cwd` as its folder, stdout and stderr apart, what a bare process would
    print on stderr besides (a WARNING or worse logged, a warning shown, a traceback past
    `main`) included. For a step whose command is not what is tested (a process each costs
    1-2 s of importing the bot, far more under load); a command beside a running bot, or whose
    exit, signals, limits or locks are the point, runs in a process of its own. Runs in a
    thread of its own, waited for, so an async test may call it as it calls
    `glossary_bot_waited` (the loop waits meanwhile). `stdin` is what the command reads there;
    stdout has a buffer, as a process's (`terms export` writes its file's bytes there)."""
    import contextlib
    import io
    import logging
    import threading
    import traceback
    import warnings

    from bot.cli import main

    # Text written through at once, so the bytes `.buffer` takes stay in order with it.
    printed = io.BytesIO()
    out = io.TextIOWrapper(printed, encoding="utf-8", write_through=True)
    err = io.StringIO()
    status: list[int] = []

    def command() -> None:
        try:
            status.append(main(list(args)))
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code
            if code is not None and not isinstance(code, int):
                print(code, file=sys.stderr)
            status.append(code if isinstance(code, int) else int(code is not None))
        except BaseException:
            traceback.print_exc()
            status.append(1)

    # Python's last resort prints these on a bare process's stderr, the message alone.
    logged = logging.StreamHandler(err)
    logged.setLevel(logging.WARNING)
    root = logging.getLogger()
    saved_env, saved_cwd, saved_stdin = dict(os.environ), Path.cwd(), sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()))  # `-` reads .buffer
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    root.addHandler(logged)
    try:
        with (
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
            warnings.catch_warnings(record=True) as caught,
        ):
            warnings.simplefilter("default")
            for hidden in _HIDDEN_WARNINGS:
                warnings.simplefilter("ignore", hidden)
            thread = threading.Thread(target=command)  # asyncio.run needs a thread with no loop
            thread.start()
            thread.join()
    finally:
        root.removeHandler(logged)
        sys.stdin = saved_stdin
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    for shown in caught:
        err.write(
            warnings.formatwarning(shown.message, shown.category, shown.filename, shown.lineno)
        )
    out.flush()
    said = printed.getvalue().decode("utf-8")
    return subprocess.CompletedProcess(list(args), status[0], said, err.getvalue())
