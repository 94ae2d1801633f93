"""Logging set-up: readable text by default, or one JSON object per line (`LOG_FORMAT=json`) for
a log system. The bot token and interaction tokens never reach a log line, whatever the format,
the level or the library.

The interaction being answered (its server and command) rides along in a context variable, so
every line logged while answering it says which one it was, in either format.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import re
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, Literal, TextIO

REDACTED = "[redacted]"
TEXT_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"

# Interaction tokens travel in URLs (discord.py logs its requests at DEBUG) and in payloads.
_INTERACTION_TOKENS = re.compile(
    r"(?P<keep>/(?:interactions|webhooks)/\d+/)[A-Za-z0-9_.\-]{20,}"
    r"|(?P<key>['\"]token['\"]\s*:\s*['\"])[^'\"]{20,}"
)

# Fields of the interaction under way: guild, command, error_id. Set by `log_context`.
_CONTEXT: contextvars.ContextVar[dict[str, object] | None] = contextvars.ContextVar(
    "log_context", default=None
)
CONTEXT_FIELDS = ("guild", "command", "error_id")
UNKNOWN_INTERACTION = 10062  # Discord's code for an answer past an interaction's 3 s


def log_context(**fields: object) -> None:
    """Add fields to what the current task's log lines carry (each task has its own)."""
    _CONTEXT.set({**(_CONTEXT.get() or {}), **fields})


# A secret shorter than this is no real bot token (Discord's are some 70 characters long):
# redacted only where it stands alone, or a DISCORD_TOKEN of "t" redacts every "t" of every
# line. A real token's length is redacted wherever it is, glued to other text or not.
WHOLE_ONLY_BELOW = 30


def redact(text: str, secrets: list[str]) -> str:
    for secret in secrets:
        if len(secret) < WHOLE_ONLY_BELOW:
            alone = rf"(?<![\w.\-]){re.escape(secret)}(?![\w\-])"
            text = re.sub(alone, REDACTED, text)
        else:
            text = text.replace(secret, REDACTED)
    return _INTERACTION_TOKENS.sub(
        lambda m: (m["keep"] or m["key"]) + REDACTED,
        text,
    )


def message_of(record: logging.LogRecord) -> str:
    """The record's message. A call whose format and arguments disagree (a library's slip) is
    kept as its format and arguments: a filter runs outside logging's own guard, and must not
    raise into the code that logged."""
    try:
        return record.getMessage()
    except (TypeError, ValueError, KeyError):
        record.msg, record.args = f"{record.msg} {record.args!r}", None
        return str(record.msg)


class RedactSecrets(logging.Filter):
    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        message = message_of(record)
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self.secrets)
        text = redact(message, self.secrets)
        if text != message:
            record.msg, record.args = text, None
        return True


class OneLineRetries(logging.Filter):
    """asyncpg's pool logs a whole traceback each time it fails to reconnect (every 1 to 60 s
    while PostgreSQL is gone), and discord.py each time it retries the gateway ("Attempting a
    reconnect in N s", while Discord is out of reach): one line each, its cause at the end,
    says as much."""

    def filter(self, record: logging.LogRecord) -> bool:
        retry = record.name == "asyncpg.pool" or (
            record.name in ("discord.client", "discord.shard")
            and str(record.msg).startswith("Attempting a reconnect")
        )
        if retry and record.exc_info and record.exc_info[1] is not None:
            cause = record.exc_info[1]
            record.msg, record.args = f"{message_of(record)}: {cause}", None
            record.exc_info, record.exc_text = None, None
        return True


class LateAutocompletes(logging.Filter):
    """discord.py logs an ERROR and a traceback for every autocomplete answer Discord refused as
    too late (10062 Unknown interaction, past its 3 s): on a slow moment, one per keystroke of
    every member typing. Not a bug, and nothing the bot can do for that keystroke: one WARNING
    line counts them, at most once a `window` of seconds (the rest are counted in the next,
    which says since when: it may come with the next slow moment, hours later)."""

    def __init__(self, window: float = 60.0) -> None:
        super().__init__()
        self.window = window
        self._said_at: float | None = None
        self._unsaid = 0
        self._first_unsaid = 0.0  # when the first of the `_unsaid` came

    def filter(self, record: logging.LogRecord) -> bool:
        cause = record.exc_info[1] if record.exc_info else None
        if not (
            record.name == "discord.app_commands.tree"
            and str(record.msg).startswith("Ignoring exception in autocomplete")
            and getattr(cause, "code", None) == UNKNOWN_INTERACTION
        ):
            return True
        if not logging.getLogger(record.name).isEnabledFor(logging.WARNING):
            return False  # the ERROR passed a level (LOG_LEVEL=ERROR) its WARNING would not
        if self._unsaid == 0:
            self._first_unsaid = record.created
        self._unsaid += 1
        if self._said_at is not None and record.created - self._said_at < self.window:
            return False
        count, self._unsaid, self._said_at = self._unsaid, 0, record.created
        first = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(self._first_unsaid))
        since = f" since {first}" if count > 1 else ""
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.msg = (
            "%s autocomplete answer%s reached Discord too late%s (Unknown interaction, error "
            "code %d): those keystrokes showed the member no choices (the bot, or its link to "
            "Discord, was slow)"
        )
        record.args = (f"{count:,}", "" if count == 1 else "s", since, UNKNOWN_INTERACTION)
        record.exc_info, record.exc_text = None, None
        return True


class AddContext(logging.Filter):
    """Copy the interaction's fields onto the record (fields passed with `extra=` win)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in (_CONTEXT.get() or {}).items():
            if not hasattr(record, key):
                setattr(record, key, value)
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, the interaction's
    guild, command and error id when there is one, and the traceback as `exception`."""

    def __init__(self, shards: str = "") -> None:
        super().__init__()
        self.shards = shards

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if self.shards:
            line["shards"] = self.shards
        for key in CONTEXT_FIELDS:
            value = getattr(record, key, None)
            if value is not None:
                line[key] = value
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exception"] = record.exc_text
        return json.dumps(line, default=str)  # ASCII: no character a reader splits lines on


class TextFormatter(logging.Formatter):
    """The readable default; the interaction's fields follow the message in brackets."""

    # UTC, as JSON lines, `stats`, `prune` and `health` say times: a host's local zone (TZ) put
    # text lines hours away from all of them, with no zone to tell.
    @staticmethod
    def converter(seconds: float | None = None, /) -> time.struct_time:
        return time.gmtime(seconds)

    def __init__(self, shards: str = "") -> None:
        prefix = f"[shards {shards}] " if shards else ""  # which shards this process runs
        super().__init__(TEXT_FORMAT.replace("%(name)s", prefix + "%(name)s"), "%Y-%m-%d %H:%M:%S")

    def formatMessage(self, record: logging.LogRecord) -> str:
        text = super().formatMessage(record)
        fields = [f"{k}={getattr(record, k)}" for k in CONTEXT_FIELDS if hasattr(record, k)]
        return f"{text} [{' '.join(fields)}]" if fields else text


def configure_logging(
    level: str,
    secrets: list[str],
    log_format: Literal["text", "json"] = "text",
    stream: TextIO | None = None,
    shards: str = "",
) -> None:
    """`shards` ("0,1") names the shards this process runs, if some: text lines start with
    `[shards 0,1]`, JSON lines carry `"shards": "0,1"`."""
    handler = logging.StreamHandler(stream or sys.stderr)
    formatter = JsonFormatter(shards) if log_format == "json" else TextFormatter(shards)
    handler.setFormatter(formatter)
    # On the handler, not a logger: they cover every logger's records, discord.py's included.
    handler.addFilter(OneLineRetries())  # before the redaction, which reads the traceback
    handler.addFilter(LateAutocompletes())
    handler.addFilter(RedactSecrets(secrets))
    handler.addFilter(AddContext())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


def _log_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    # One line (warnings.formatwarning adds the source line and a newline); `file` is ignored:
    # the log is where a running bot's words go.
    logging.getLogger("py.warnings").warning(
        "%s: %s (%s:%d)", category.__name__, message, filename, lineno
    )


def _log_thread_exception(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is SystemExit:  # as Python's own hook: a thread's quiet exit
        return
    name = args.thread.name if args.thread is not None else "a thread"
    logging.getLogger("threading").error(
        "exception in thread %s: %s", name, args.exc_type.__name__, exc_info=args.exc_value
    )


def _log_unraisable(unraisable: Any) -> None:
    # sys.UnraisableHookArgs: an exception Python could not raise (a `__del__`, a finalizer).
    said = unraisable.err_msg or "Exception ignored in"
    where = f"{said}: {unraisable.object!r}" if unraisable.object is not None else said
    logging.getLogger("unraisable").error(
        "%s: %s", where, unraisable.exc_type.__name__, exc_info=unraisable.exc_value
    )


@contextlib.contextmanager
def python_reports_logged() -> Iterator[None]:
    """While the bot runs, what Python reports by itself on stderr (a warning, an exception in a
    thread or in a `__del__`) goes through the configured logger instead: one JSON line with
    LOG_FORMAT=json, the token redacted. (asyncio's own reports already use its logger.) The
    hooks are put back after, as a test running `run` in its process expects of them."""
    before = warnings.showwarning, threading.excepthook, sys.unraisablehook
    warnings.showwarning = _log_warning
    threading.excepthook = _log_thread_exception
    sys.unraisablehook = _log_unraisable
    try:
        yield
    finally:
        warnings.showwarning, threading.excepthook, sys.unraisablehook = before
