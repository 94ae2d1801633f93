"""Starting and stopping the bot: settings, endpoints, signals, exit codes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import aiohttp
import discord
import yarl

from bot import this_process
from bot.dburl import without_password
from bot.discord_app.app import (
    STOP_SECONDS,
    STORE_SHARE,
    GlossaryBot,
    ShardedGlossaryBot,
    shard_label,
)
from bot.discord_app.cli import reload_when_running, stop_when_running
from bot.discord_app.health import (
    LINE_SECONDS,
    forget_stop,
    keep_heartbeat,
    mark_stopped,
    shard_ranges,
    stop_heartbeat,
)
from bot.discord_app.logs import JsonFormatter, configure_logging, python_reports_logged
from bot.discord_app.metrics import serve_metrics
from bot.discord_app.state import BotState, DatabaseWait, load_served
from bot.glossary import Glossary, GlossaryError
from bot.settings import (
    MAX_SHARD_COUNT,
    Settings,
    SettingsError,
    comments_read_off,
    load_settings,
    unknown_settings,
)
from bot.storage import (
    NotAGlossaryDatabase,
    SchemaTooNew,
    ShardsTaken,
    StorageError,
    StorageUnavailable,
    Store,
)
from bot.storage.backend import shown_location
from bot.storage.errors import said_of

log = logging.getLogger(__name__)
T = TypeVar("T")

EXIT_OK, EXIT_ERROR, EXIT_CONFIG = 0, 1, 2
# Seconds to wait for Discord's recommended shard count (SHARD_COUNT unset); past them the bot
# runs one connection, as it did before it asked.
ASK_DISCORD = 30.0
# A PostgreSQL not up yet at start is tried again every OPEN_RETRY s, for DATABASE_WAIT s,
# before the bot serves without it: after a reboot, restart policies start the bot beside
# PostgreSQL without waiting for it (compose's depends_on holds for `up` only), and a bot
# that gave up would serve without counts, aliases and shard claims until restarted by hand.
OPEN_RETRY = 2.0


def fail(message: str) -> None:
    """The line that says why `run` stops: `glossary-bot: …` on stderr, or, once the logs are
    JSON, one JSON object like every other line (a log system reading JSON lines would drop
    or flag the one that says why the bot stopped)."""
    if any(isinstance(h.formatter, JsonFormatter) for h in logging.getLogger().handlers):
        log.critical("%s", message)
    else:
        print(f"glossary-bot: {message}", file=sys.stderr)


def apply_endpoints(settings: Settings) -> None:
    """Point discord.py at the configured REST base and gateway (a proxy, or the tests' fake)."""
    discord.http.Route.BASE = settings.discord_api_base_url.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


def run_to_exit(settings: Settings | None = None) -> NoReturn:
    """`run`, then end the process at once with its exit status. By then everything is written
    and closed; Python's own finalization would free the glossary's indexes object by object,
    which takes seconds on a loaded machine: past a container's grace, after a stop that kept
    to its deadline (`STOP_SECONDS`)."""
    try:
        code = run(settings)
    except SystemExit as stopped:  # SIGTERM before the bot's handlers or after them (`cli`)
        code = stopped.code if isinstance(stopped.code, int) else int(stopped.code is not None)
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def run(settings: Settings | None = None) -> int:
    try:
        settings = settings or load_settings()
    except SettingsError as exc:
        fail(str(exc))
        return EXIT_CONFIG
    serving = False
    code = EXIT_ERROR
    hooks = contextlib.ExitStack()
    try:
        token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
        shard_ids = settings.shard_id_list
        configure_logging(
            settings.log_level,
            secrets=[token],
            log_format=settings.log_format,
            shards=shard_label(shard_ids) if shard_ids else "",
        )
        hooks.enter_context(python_reports_logged())
        for line in (*unknown_settings(), *comments_read_off()):
            log.warning(line)
        if not token:
            fail(
                "DISCORD_TOKEN is not set: put it in the environment or in .env (see .env.example)"
            )
            code = EXIT_CONFIG
            return code
        try:
            glossary = load_served(settings.glossary_path_list)
        except GlossaryError as exc:
            fail(str(exc))
            return EXIT_ERROR
        apply_endpoints(settings)
        # A text-only bot: discord.py's warnings about missing voice libraries are only noise.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        with _stop_kept():
            serving = True  # from here `_serve` says the stop in the heartbeat file
            # As other processes' refusals and the heartbeat file name it: which container.
            log.info("starting as %s", this_process.named())
            return asyncio.run(_serve(settings, token, glossary))
    except SystemExit as stopped:  # SIGTERM or Ctrl-C while starting (`cli._stop_while_starting`)
        code = EXIT_OK if stopped.code in (0, None) else EXIT_ERROR
        raise
    finally:
        with hooks:
            if not serving and settings.heartbeat_path is not None:
                _stopped_before_serving(settings.heartbeat_path, on_error=code != EXIT_OK)


def _stopped_before_serving(heartbeat: Path, *, on_error: bool) -> None:
    """The stop line of a bot that stopped before its loop (no token, a glossary with errors,
    a stop signal while reading them): `health` said what an earlier run left ("stopped cleanly"
    an hour ago) or "starting, or never connected". Off the main thread and waited for within
    the stop's deadline: a disk that hangs does not hold the exit."""
    writing = threading.Thread(
        target=mark_stopped,
        args=(heartbeat,),
        kwargs={"on_error": on_error, "beat": False},
        daemon=True,
    )
    writing.start()
    writing.join(STOP_SECONDS)


async def _try_open(settings: Settings) -> Store | Exception:
    """The database, or why it did not open. A database written by a newer version (or by
    another program) is refused, untouched: raised."""
    try:
        store = await Store.open(settings.database_location)
    except (SchemaTooNew, NotAGlossaryDatabase):
        raise
    except Exception as exc:
        return exc
    store.write_wait = settings.write_wait
    return store


def _waits_for(settings: Settings, error: Exception, stop: asyncio.Event) -> bool:
    """Is the database that did not open one to try again (`_not_up_yet`, DATABASE_WAIT)?"""
    return (
        isinstance(error, StorageUnavailable)
        and settings.database_wait > 0
        and not stop.is_set()
        and _not_up_yet(settings, error)
    )


async def _retry_open(
    settings: Settings, stop: asyncio.Event, deadline: float, error: Exception
) -> Store | Exception:
    """Try the database again every OPEN_RETRY s until it opens, fails otherwise than by not
    being up yet, `deadline` (on the loop's clock) passes or `stop` is set: the store, or the
    last failure. An open under way is left to its own timeout (5 s) at a stop: one cancelled
    halfway could leave SQLite's thread behind."""
    loop = asyncio.get_running_loop()
    while loop.time() < deadline:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), OPEN_RETRY)  # the retry's pace
        if stop.is_set():
            return error
        opened = await _try_open(settings)
        if isinstance(opened, Store):
            return opened
        error = opened
        if not isinstance(error, StorageUnavailable) or not _not_up_yet(settings, error):
            return error
    return error


async def _open_store(settings: Settings, stop: asyncio.Event, error: Exception) -> Store | None:
    """The database, or None: a database that cannot be opened must not keep /define down.
    `error`: why the first try failed.

    A PostgreSQL not up yet is tried again (DATABASE_WAIT) before the bot goes on without it:
    here, before connecting, for a sharded process (its shard claim and its turns to identify
    are in the database); a process of the whole bot waits while it answers
    (`_open_while_answering`). A stop that came while it opened makes a failure one INFO line.
    """
    if isinstance(error, StorageUnavailable) and _waits_for(settings, error, stop):
        log.warning(
            "cannot open the database %s: %s; trying again every %g s for up to %g s "
            "(PostgreSQL still starting?) before serving without it",
            database_setting(settings),
            said_of(error, shown_location(settings.database_location)),
            OPEN_RETRY,
            settings.database_wait,
        )
        deadline = asyncio.get_running_loop().time() + settings.database_wait
        retried = await _retry_open(settings, stop, deadline, error)
        if isinstance(retried, Store):
            log.info("the database %s answers: opened", database_setting(settings))
            return retried
        error = retried
    _not_opened(settings, error, stop)
    return None


def _not_opened(
    settings: Settings, error: Exception, stop: asyncio.Event, gave_up: str = ""
) -> None:
    """The line for a database the bot serves without: the operator's ERROR, or an INFO line
    when a stop came while it opened."""
    if not stop.is_set():
        _cannot_open(settings, error, gave_up)
        return
    log.info(
        "stopped while opening the database %s: %s%s",
        database_setting(settings),
        said_of(error, shown_location(settings.database_location))
        if isinstance(error, StorageError)
        else type(error).__name__,
        gave_up,
    )


def _answers_before_its_database(settings: Settings, error: Exception, stop: asyncio.Event) -> bool:
    """Does the bot connect to Discord and answer from its glossary while it waits for its
    database? A process of the whole bot (no SHARD_COUNT) does; a sharded one waits first."""
    return not settings.sharded and _waits_for(settings, error, stop)


def _answer_meanwhile(
    bot: GlossaryBot,
    state: BotState,
    settings: Settings,
    stop: asyncio.Event,
    claims: contextlib.AsyncExitStack,
    error: Exception,
) -> asyncio.Task[int | None]:
    """The wait for a PostgreSQL not up yet begun, beside the bot's connection to Discord: one
    WARNING, and `health` says it (`BotState.database_wait`)."""
    setting = database_setting(settings)
    state.await_database(DatabaseWait(setting, time.time(), settings.database_wait))
    log.warning(
        "cannot open the database %s: %s; answering from the glossary meanwhile (no server "
        "terms, aliases or moderator changes yet) and trying again every %g s for up to %g s "
        "(PostgreSQL still starting?)",
        setting,
        said_of(error, shown_location(settings.database_location)),
        OPEN_RETRY,
        settings.database_wait,
    )
    return asyncio.create_task(_open_while_answering(bot, state, settings, stop, claims, error))


async def _open_while_answering(
    bot: GlossaryBot,
    state: BotState,
    settings: Settings,
    stop: asyncio.Event,
    claims: contextlib.AsyncExitStack,
    error: Exception,
) -> int | None:
    """`_take_up_database`, whose failure unforeseen (a bug) is said with its traceback: the
    bot answers on as it does without a database."""
    try:
        return await _take_up_database(bot, state, settings, stop, claims, error)
    except Exception:
        state.database_given_up()
        log.exception("could not take up the database %s", database_setting(settings))
        return None


async def _take_up_database(
    bot: GlossaryBot,
    state: BotState,
    settings: Settings,
    stop: asyncio.Event,
    claims: contextlib.AsyncExitStack,
    error: Exception,
) -> int | None:
    """The wait for a PostgreSQL not up yet, while the bot answers from its glossary: the
    database taken up when it opens (what was counted meanwhile, the bot's claim, each server's
    terms and aliases), or given up past DATABASE_WAIT as one that cannot be opened. An exit
    code when the bot must stop (`stop` then set): its database refused, or another process
    runs this bot on it."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    try:
        opened = await _retry_open(settings, stop, started + settings.database_wait, error)
    except (SchemaTooNew, NotAGlossaryDatabase) as exc:
        state.database_given_up()
        fail(str(exc))
        stop.set()
        return EXIT_CONFIG
    if not isinstance(opened, Store):
        counted = state.database_given_up()
        tried = (
            ""
            if stop.is_set()
            else f"tried for DATABASE_WAIT={settings.database_wait:g} s; "
            if loop.time() >= started + settings.database_wait
            else "tried again while answering; "  # up now, but refusing otherwise
        )
        _not_opened(
            settings, opened, stop, f" ({tried}the {counted} counted meanwhile are not kept)"
        )
        return None
    counted = state.database_opened(opened)
    log.info(
        "the database %s answers after %.0f s: opened; %s counted meanwhile are written with "
        "the next flush, and each server's terms and aliases are read now",
        database_setting(settings),
        loop.time() - started,
        counted,
    )
    claimed = await _hold_claim(settings, opened, bot, claims, stop)
    if claimed == EXIT_CONFIG:
        stop.set()
        return EXIT_CONFIG
    if claimed is None:
        await state.servers.warm(guild.id for guild in bot.guilds)
    return None


async def _hold_claim(
    settings: Settings,
    store: Store,
    bot: GlossaryBot,
    claims: contextlib.AsyncExitStack,
    stop: asyncio.Event,
) -> int | None:
    """The bot's claim on its shards in `store`, held by `claims`: None once held (or when the
    check failed: the bot still answers), EXIT_OK if stopped while waiting for it (no shard
    claimed), EXIT_CONFIG if another process runs them (said)."""
    claim = _claim_shards(settings, store, bot.application_id, bot.shard_count)
    try:
        if await _unless_stopped(claims.enter_async_context(claim), stop) is None:
            return EXIT_OK
    except ShardsTaken as exc:
        fail(_shards_taken(settings, exc, shared=store.shared))
        return EXIT_CONFIG
    except StorageError as exc:  # the bot still answers; the check is lost
        log.warning("could not check which shards other processes run: %s", exc)
    return None


def _not_up_yet(settings: Settings, exc: StorageUnavailable) -> bool:
    """PostgreSQL not up yet: its port refusing, its host's name not found (a container not
    started), or the server starting (57P03). Not a host that never answers (a firewall, a
    wrong address): that is waited for once, for its connect timeout, not again and again."""
    if not settings.database_url:
        return False
    cause = exc.__cause__
    if isinstance(cause, TimeoutError):
        return False
    return isinstance(cause, OSError) or getattr(cause, "sqlstate", None) == "57P03"


def _cannot_open(settings: Settings, exc: Exception, gave_up: str = "") -> None:
    if isinstance(exc, StorageError):  # the operator's to fix (a volume, a folder's owner)
        log.error(
            "cannot open the database %s: %s%s; answering without counts and aliases",
            database_setting(settings),
            said_of(exc, shown_location(settings.database_location)),
            gave_up,
        )
        return
    log.error(
        "cannot open the database %s%s; answering without counts and aliases",
        database_setting(settings),
        gave_up,
        exc_info=exc,
    )


def database_setting(settings: Settings) -> str:
    """The setting that names the database, with its value (a URL without its password)."""
    if settings.database_url:
        return f"DATABASE_URL={without_password(settings.database_url.get_secret_value())}"
    return f"DATABASE_PATH={settings.database_path.absolute()}"


def make_bot(state: BotState, settings: Settings, shard_count: int | None = None) -> GlossaryBot:
    """One unsharded connection, or an auto-sharded client over SHARD_IDS (all without it) of
    SHARD_COUNT shards, or of `shard_count`, Discord's, when SHARD_COUNT is not set."""
    count = settings.shard_count or shard_count
    if not settings.sharded and (count is None or count == 1):  # one connection, as ever
        return GlossaryBot(
            state, dev_guild_id=settings.dev_guild_id, identify_window=settings.identify_window
        )
    return ShardedGlossaryBot(
        state,
        dev_guild_id=settings.dev_guild_id,
        identify_window=settings.identify_window,
        shard_count=count,
        shard_ids=settings.shard_id_list,
    )


async def discords_shard_count(token: str) -> tuple[int | None, str]:
    """How many shards Discord recommends for the bot (`GET /gateway/bot`), for a process
    without SHARD_COUNT: asked before the client is made, since the count decides which client
    it is. None, and why, when Discord does not say: the bot then runs one connection, and the
    why is logged once logged in (a token refused or Discord away is the login's to say)."""
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    try:
        async with asyncio.timeout(ASK_DISCORD):
            await http.static_login(token)
            count = max(1, int((await http.get_bot_gateway())[0]))
    except (
        discord.DiscordException,
        OSError,
        aiohttp.ClientError,
        TimeoutError,
        KeyError,  # an answer without `shards`
        TypeError,
        ValueError,
    ) as exc:
        return None, f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    finally:
        await http.close()
    if count > MAX_SHARD_COUNT:  # no bot has as many: a proxy's or a broken answer
        return (
            None,
            f"Discord answered {count} shards, and SHARD_COUNT takes at most {MAX_SHARD_COUNT}",
        )
    if count > 1:
        log.info(
            "Discord recommends %d shards (SHARD_COUNT is not set): this process runs them all",
            count,
        )
    return count, ""


async def _serve(settings: Settings, token: str, glossary: Glossary) -> int:
    state = BotState(
        glossary,
        None,  # the store opens once Discord has accepted the token
        settings.glossary_path_list,
        cooldown=(settings.cooldown_uses, settings.cooldown_seconds),
        term_caps=(settings.max_server_terms, settings.max_server_term_bytes),
        server_cache_mb=settings.server_cache_mb,
    )
    stop = asyncio.Event()
    reloads: set[asyncio.Task[str]] = set()  # referenced until done, so none is collected early

    def reload() -> None:
        task = asyncio.create_task(state.reload_off_loop())
        reloads.add(task)
        task.add_done_callback(reloads.discard)

    # Taken before Discord is asked its shard count (up to ASK_DISCORD): a SIGHUP meanwhile
    # killed the process by the signal's default action.
    handlers = {signal.SIGTERM: stop.set, signal.SIGINT: stop.set, signal.SIGHUP: reload}
    beats_stop = asyncio.Event()  # set as the heartbeat's stop line is written
    with _signals_taken(handlers):
        if reload_when_running.taken():  # asked while the settings and glossary were read
            reload()
        if stop_when_running.taken():  # asked as the loop started
            stop.set()
        heartbeat = settings.heartbeat_path
        if heartbeat is not None:  # `health` says "starting" now, not an earlier run's stop
            # A disk that hangs holds that only (the beats and the stop line wait their turn
            # after it, each within its bounds), not the start.
            await asyncio.wait(
                {asyncio.ensure_future(forget_stop(heartbeat))}, timeout=LINE_SECONDS
            )
        code = EXIT_ERROR
        try:
            code = await _ask_and_serve(state, settings, token, stop, beats_stop)
            return code
        finally:
            if heartbeat is not None and not beats_stop.is_set():
                # Stopped before the heartbeat began (asking Discord, logging in, a refusal):
                # `health` says so, not "starting, or never connected".
                await stop_heartbeat(
                    None, beats_stop, heartbeat, STOP_SECONDS, on_error=code != EXIT_OK
                )


async def _ask_and_serve(
    state: BotState, settings: Settings, token: str, stop: asyncio.Event, beats_stop: asyncio.Event
) -> int:
    """Discord's shard count asked (SHARD_COUNT unset), then the bot logged in and run."""
    if settings.sharded:
        shard_count, unasked = settings.shard_count, ""
    else:
        asked = await _unless_stopped(discords_shard_count(token), stop)
        if asked is None:  # stopped while asking: nothing is open yet
            return EXIT_OK
        shard_count, unasked = asked[0]
    bot = make_bot(state, settings, shard_count)
    metrics_server = serve_metrics(settings, bot, state)
    try:
        return await _log_in_and_run(bot, state, settings, token, stop, beats_stop, unasked)
    finally:
        if metrics_server is not None:  # off the loop: a scrape under way may still ask it
            await asyncio.to_thread(metrics_server.stop)


async def _unless_stopped(asking: Coroutine[Any, Any, T], stop: asyncio.Event) -> tuple[T] | None:
    """`asking`'s answer (in a 1-tuple: the login's is None), or None when `stop` is set
    first (the question then cancelled)."""
    answer = asyncio.ensure_future(asking)
    stopping = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({answer, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
        if not answer.done():
            answer.cancel()
            await asyncio.wait({answer})
    return None if answer.cancelled() else (answer.result(),)


@contextlib.contextmanager
def _stop_kept() -> Iterator[None]:
    """SIGTERM and Ctrl-C kept from the loop's start (`_serve` stops on them once it has its
    own handlers, and says the stop in the heartbeat file), and after its end (a second one
    while stopping: the stop is under way). Before, one raised SystemExit out of the loop's
    start (`cli._stop_while_starting`), and the heartbeat kept an earlier run's line."""
    found = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
    for sig in found:
        signal.signal(sig, stop_when_running)
    try:
        yield
    finally:
        stop_when_running.taken()  # what came after the stop is not the next run's
        for sig, before in found.items():
            if before is not None:  # None: set outside Python, which cannot be put back
                signal.signal(sig, before)


@contextlib.contextmanager
def _signals_taken(handlers: Mapping[signal.Signals, Callable[[], object]]) -> Iterator[None]:
    """The running loop handles `handlers`' signals, then the handlers found before are put
    back: asyncio's removal puts back the defaults, and a program that embeds or re-runs the
    runner had its own (an ignored SIGINT or SIGHUP, a SIGTERM handler) replaced."""
    loop = asyncio.get_running_loop()
    found = {sig: signal.getsignal(sig) for sig in handlers}
    for sig, handler in handlers.items():
        loop.add_signal_handler(sig, handler)
    try:
        yield
    finally:
        for sig, before in found.items():
            loop.remove_signal_handler(sig)
            if before is not None:  # None: set outside Python, which cannot be put back
                signal.signal(sig, before)


async def _log_in_and_run(
    bot: GlossaryBot,
    state: BotState,
    settings: Settings,
    token: str,
    stop: asyncio.Event,
    beats_stop: asyncio.Event,
    unasked: str = "",  # why Discord's shard count is unknown, if it is
) -> int:
    error: BaseException | None = None
    async with bot:
        try:
            # Raced with the stop: Discord (or a proxy) that takes the connection and never
            # answers held the login, Ctrl-C and SIGTERM with it, until aiohttp's 5 minutes.
            if await _unless_stopped(bot.login(token), stop) is None:
                return EXIT_OK  # stopped before Discord answered: nothing is open yet
        except discord.LoginFailure as exc:
            error = exc
        except (OSError, aiohttp.ClientError, discord.HTTPException) as exc:
            fail(f"cannot reach Discord at {settings.discord_api_base_url}: {exc}")
            return EXIT_ERROR
        else:
            if unasked:  # Discord answers now, but did not say its count
                log.warning(
                    "could not ask Discord how many shards to run (%s): one connection, which "
                    "Discord refuses past 2,500 servers (set SHARD_COUNT, or restart to ask again)",
                    unasked,
                )
            first: Store | Exception | None = None
            try:
                first = await _try_open(settings)
                if isinstance(first, Store):
                    state.store = first
                elif not _answers_before_its_database(settings, first, stop):
                    # (again: its first try is the one above, said as ever)
                    state.store = await _open_store(settings, stop, first)
            except (SchemaTooNew, NotAGlossaryDatabase) as exc:
                fail(str(exc))
                return EXIT_CONFIG
            if stop.is_set():  # while it opened: nothing to warn of, no shard to claim
                return EXIT_OK
            _warn_if_alone(settings, state.store)
            async with contextlib.AsyncExitStack() as claims:
                if state.store is not None:
                    # Raced with the stop too: a restart's wait (CLAIM_WAIT) for shards another
                    # process holds outlasted the stop's deadline, then said they were taken.
                    claimed = await _hold_claim(settings, state.store, bot, claims, stop)
                    if claimed is not None:
                        return claimed
                opener = None
                if isinstance(first, Exception) and _answers_before_its_database(
                    settings, first, stop
                ):
                    opener = _answer_meanwhile(bot, state, settings, stop, claims, first)
                error = await _connect_until_stopped(bot, state, settings, stop, beats_stop, opener)
                refused = _refusal(opener)
                if refused is not None:
                    return refused
    if isinstance(error, discord.LoginFailure):
        fail("Discord rejected the token (401 Unauthorized): check DISCORD_TOKEN")
        return EXIT_CONFIG
    if isinstance(error, discord.ConnectionClosed) and error.code == 4004:
        fail(
            "Discord closed the connection: the token is no longer valid (4004): check DISCORD_TOKEN"
        )
        return EXIT_CONFIG
    if isinstance(error, discord.ConnectionClosed) and error.code in (4010, 4011):
        # Invalid shard, sharding required: the shard settings, not a fault to read up on.
        what = "4010 invalid shard" if error.code == 4010 else "4011 sharding required"
        here = (
            f"SHARD_COUNT={settings.shard_count} here; Discord's count is in its /gateway/bot "
            "answer"
            if settings.sharded
            else "SHARD_COUNT=unset here: this process ran Discord's count at its start, "
            f"{bot.shard_count or 1}; a restart asks Discord again"
        )
        fail(f"Discord refused the shard ({what}): check SHARD_COUNT and SHARD_IDS ({here})")
        return EXIT_CONFIG
    if error is not None:  # one line; the traceback only for those who asked for DEBUG
        log.error("the bot stopped on an error: %s: %s", type(error).__name__, error)
        log.debug("the error's traceback", exc_info=error)
        return EXIT_ERROR
    return EXIT_OK


def _claim_shards(
    settings: Settings, store: Store, application_id: int | None, shard_count: int | None
) -> contextlib.AbstractAsyncContextManager[None]:
    """This process's shards, claimed among the processes on a shared database (none other
    may run them while this one runs), and its bot (`application_id`, known once logged in)
    in none other of its schemas; named to the others by host and pid. Without SHARD_COUNT,
    the `shard_count` Discord recommended, when above 1, is claimed as if set: a process with
    another count, or with SHARD_IDS, is refused beside it. One connection claims the bot."""
    count = settings.shard_count
    if count is None and shard_count is not None and shard_count > 1:
        count = shard_count
    ids = settings.shard_id_list if settings.sharded else None
    if count is not None and ids is None:
        ids = list(range(count))
    holder = holder_name(ids, os.getpid(), socket.gethostname(), this_process.run_id())
    return store.claim_shards(
        ids,
        holder=holder,
        wait=settings.claim_wait,
        shard_count=count,
        application_id=application_id,
    )


# PostgreSQL keeps this many bytes of a session's name (NAMEDATALEN - 1).
HOLDER_BYTES = 63


def holder_name(ids: Sequence[int] | None, pid: int, host: str, run: str = "") -> str:
    """This process as the others' refusals name it, within `HOLDER_BYTES`: its shards, pid,
    host and run id (`this_process`: containers' bots are each pid 1, on one host's name; the
    log's "starting as" line says which is which). The run id goes where it fits whole with
    some of the shards (a long host: a pod's, which tells processes apart by itself)."""
    if run:
        named = _holder_name(ids, pid, host, f" run {run}")
        if named.endswith(f" run {run}") and (ids is None or " shards " in named):
            return named
    return _holder_name(ids, pid, host)


def _holder_name(ids: Sequence[int] | None, pid: int, host: str, run: str = "") -> str:
    """`holder_name`'s, `run` at the end. Where every shard does not fit, they go as ranges
    ("shards 0-149"), then cut short with "…": the pid and host are what an operator needs
    to find it."""
    tail = f" pid {pid} on {host}{run}"
    if ids is None:
        return _bytes_cut(f"glossary-bot all shards{tail}")
    for label in (shard_label(ids), shard_ranges(ids)):
        name = f"glossary-bot shards {label}{tail}"
        if len(name.encode()) <= HOLDER_BYTES:
            return name
    room = HOLDER_BYTES - len(f"glossary-bot shards …{tail}".encode())
    ranges = shard_ranges(ids)
    listed = ranges[: max(0, room)]
    if "," in listed:
        listed = listed[: listed.rindex(",") + 1]  # at a whole range
    else:  # inside the first range: its first id whole ("100-…"), never a number cut short
        head = ranges.split(",")[0]
        first = head.split("-")[0] + ("-" if "-" in head else ",")
        listed = first if len(first) <= len(listed) else ""
    if not listed:  # a host of its own length: the pid before it
        return _bytes_cut(f"glossary-bot{tail}")
    return f"glossary-bot shards {listed}…{tail}"


def _bytes_cut(text: str) -> str:
    return text.encode()[:HOLDER_BYTES].decode(errors="ignore")


def _shards_taken(settings: Settings, taken: ShardsTaken, *, shared: bool) -> str:
    """One line for the operator: which setting, and which other process."""
    others = "; ".join(taken.holders) or "a process that has not named itself"
    if not shared:
        return (
            f"{database_setting(settings)}: another bot runs on this SQLite file "
            f"({others}); one bot per file: stop it, or give this one a DATABASE_PATH of its "
            "own (several processes share one PostgreSQL database: DATABASE_URL)"
        )
    if taken.application is not None:
        return (
            f"DATABASE_URL: this bot (application {taken.application}) already runs on this "
            f"database in another schema ({others}); one bot in two schemas knocks its own "
            "shards off Discord: give every process of this bot the same DATABASE_URL (its "
            "?search_path=), or this one a bot of its own (DISCORD_TOKEN)"
        )
    if not settings.sharded:  # whichever of Discord's shards was found taken
        return (
            "this process would run every shard (SHARD_COUNT is not set), but another process "
            f"on this database runs shards ({others}): set SHARD_COUNT and SHARD_IDS for each "
            "process, or stop the other"
        )
    if taken.count is not None:
        return (
            f"SHARD_COUNT {settings.shard_count}: another process on this database runs "
            f"SHARD_COUNT {taken.count} ({others}); a server's shard depends on the count: give "
            "every process the same SHARD_COUNT (to change it, stop them all first)"
        )
    if taken.shard is not None:
        return (
            f"SHARD_IDS {settings.shard_ids or '(all)'}: shard {taken.shard} is already run by "
            f"another process on this database ({others}); give each process its own SHARD_IDS"
        )
    return (
        f"SHARD_IDS {settings.shard_ids or '(all)'}: another process on this database runs every "
        f"shard ({others}; SHARD_COUNT is not set there): set SHARD_COUNT and SHARD_IDS for it too"
    )


def _warn_if_alone(settings: Settings, store: Store | None) -> None:
    """Some of the shards on a database no other process can share: the other shards' process
    keeps its own counts and aliases, and the two do not take turns to connect."""
    ids = settings.shard_id_list
    if ids is None or len(ids) == settings.shard_count or (store is not None and store.shared):
        return
    if store is None and settings.database_url:
        # PostgreSQL that could not be opened (said already): shared, but not reached.
        log.warning(
            "SHARD_IDS %s: without its database this process does not check which shards "
            "other processes run, nor take turns with them to connect, until it is restarted",
            shard_label(ids),
        )
        return
    log.warning(
        "SHARD_IDS %s is part of the bot's %s shards, but the database is not shared "
        "(set DATABASE_URL to PostgreSQL for every process)",
        shard_label(ids),
        settings.shard_count,
    )


def _between_connections(bot: GlossaryBot) -> bool:
    """Is the bot (or a shard of it) without a live connection to Discord, trying again (an
    outage, the network down)? discord.py then sleeps its backoff, up to minutes, and closing
    the client does not wake it: a sharded client sleeps a shard's (after its first) in its
    connect loop, not in the shard's task its close cancels."""
    if isinstance(bot, discord.AutoShardedClient):
        return any(shard.is_closed() for shard in bot.shards.values())
    ws = bot.ws
    return ws is None or not ws.open


def _launching(bot: GlossaryBot) -> bool:
    """Is a sharded client still connecting its shards, one at a time? discord.py goes on
    launching the next on a closed client, logging a failure with a traceback every 5 s."""
    if not isinstance(bot, discord.AutoShardedClient):
        return False
    return len(bot.shards) < len(bot.shard_ids or range(bot.shard_count or 1))


def _refusal(opener: asyncio.Task[int | None] | None) -> int | None:
    """The exit code the database's opening while answering ended the bot with, if any."""
    if opener is None or not opener.done() or opener.cancelled():
        return None
    return opener.result()  # it raises nothing (`_open_while_answering`)


async def _cancelled(task: asyncio.Task[Any]) -> None:
    """`task` ended: cancelled if it runs, and waited for."""
    if not task.done():
        task.cancel()
        await asyncio.wait({task})


async def _connect_until_stopped(
    bot: GlossaryBot,
    state: BotState,
    settings: Settings,
    stop: asyncio.Event,
    beats_stop: asyncio.Event,
    opener: asyncio.Task[int | None] | None = None,
) -> BaseException | None:
    """Stay connected until a stop signal; returns the error the connection ended on, if any.
    `beats_stop` is set as the heartbeat's stop line is written. `opener`: the database being
    opened meanwhile (`_open_while_answering`), ended before the bot closes, so that a store
    it opened is closed with it, its counts written."""
    running = asyncio.create_task(bot.connect())
    heartbeat = (
        asyncio.create_task(
            keep_heartbeat(
                bot,
                lambda: state.store,
                settings.heartbeat_path,
                database_setting(settings),
                bot.rest,
                interval=settings.heartbeat_interval,
                stop=beats_stop,
                waiting=lambda: state.database_wait,
                changed=state.health_changed,
            )
        )
        if settings.heartbeat_path
        else None
    )
    stopping = asyncio.create_task(stop.wait())
    await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
    stopped = stopping.done()
    loop = asyncio.get_running_loop()
    if stopped:
        log.info("stopping: flushing counts and closing the connection")
        bot.stop_deadline = loop.time() + STOP_SECONDS  # for every step from here on
        if opener is not None:  # it ends at the stop, but for an open under way (its 5 s)
            await asyncio.wait(
                {opener}, timeout=max(0.0, bot.stop_deadline - STORE_SHARE - loop.time())
            )
            await _cancelled(opener)  # before the close: a store it opens after is not closed
        between = _between_connections(bot)
        if _launching(bot):  # before the close, which the next shard's launch would meet
            running.cancel()
        await bot.close()
        if between:  # nothing to close: its retries end now, not at the deadline
            running.cancel()
    stopping.cancel()
    if opener is not None:  # the connection ended: so does the bot
        await _cancelled(opener)
    refused = _refusal(opener) is not None
    if heartbeat is not None and settings.heartbeat_path is not None:
        failed = running.done() and not running.cancelled() and running.exception() is not None
        left = bot.stop_deadline - loop.time() if bot.stop_deadline is not None else STOP_SECONDS
        await stop_heartbeat(
            heartbeat,
            beats_stop,
            settings.heartbeat_path,
            max(left, 0.0),
            on_error=(not stopped and failed) or refused,
        )
    # Wait without re-raising: the error is reported by the caller. Once closed, the connection
    # ends at its next step; one held by the gateway's send limit (up to a minute after a burst
    # of heartbeat requests) is cut at the stop's deadline, inside a container's grace period.
    if stopped and bot.stop_deadline is not None:
        await asyncio.wait({running}, timeout=max(0.0, bot.stop_deadline - loop.time()))
        running.cancel()
    await asyncio.wait({running})
    return running.exception() if not running.cancelled() else None
