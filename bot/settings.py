"""Settings from the environment and a `.env` file; every one is documented in `.env.example`.

Beneath both, an installation may set its own defaults in INSTALLATION_DEFAULTS (the image does).

Every command reads them through `load_settings()`, so `.env` counts everywhere. An empty value
(`HEARTBEAT_PATH=` in an env file) means the setting's default. A bad value is reported in one
line naming the setting and what it accepts, never echoing a secret.
"""

from __future__ import annotations

import codecs
import difflib
import logging
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, TypeVar
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    DotEnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from bot.dburl import (
    PERCENT_ENCODE,
    credentials_problem,
    port_problem,
    scheme,
    without_password,
)
from bot.errors import ReportedError
from bot.heartbeat import HEARTBEAT_INTERVAL, MAX_AGE, MAX_INTERVAL, MIN_INTERVAL

DISCORD_API_BASE_URL = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# The most shards a bot may have: at Discord's 1,000 servers a shard, far more servers than Discord
# has. A bigger SHARD_COUNT is a typo, and would have this process open that many connections.
MAX_SHARD_COUNT = 100_000
# Seconds a moderator's change waits for the database (WRITE_WAIT): a healthy one answers in
# milliseconds, a SQLite file another process holds within its busy timeout (5 s).
WRITE_WAIT = 10.0
# Defaults an installation may set (the container image does), beneath `.env` and the environment.
INSTALLATION_DEFAULTS = "/etc/glossary-bot/defaults.env"
T = TypeVar("T")

# What each setting accepts, as the one-line error says it.
ACCEPTS = {
    "discord_token": "the bot token from the Discord Developer Portal, on one line without "
    "spaces or line breaks",
    "discord_api_base_url": "an http(s) URL without user:password@",
    "discord_gateway_url": "a ws(s) URL without user:password@",
    "database_path": "a file path",
    "database_url": "a postgresql://user:password@host:port/database URL, or empty for the "
    "SQLite file",
    "dev_guild_id": "a server id (a positive whole number), or empty",
    "log_level": f"one of {', '.join(LOG_LEVELS)}",
    "glossary_paths": f"files or folders separated by {os.pathsep!r}",
    "heartbeat_path": "a file path, or empty",
    "cooldown_uses": "a whole number of at least 1",
    "cooldown_seconds": "a number of seconds above 0",
    "max_server_terms": "a whole number of at least 1",
    "max_server_term_bytes": "a whole number of bytes, at least 1024",
    "server_cache_mb": "a whole number of megabytes (MiB), at least 1",
    "log_format": "text or json",
    "metrics_port": "a port number from 1 to 65535, 0 (any free port, named in the log), or "
    "empty (no metrics)",
    "metrics_host": "an address to listen on, such as 127.0.0.1",
    "shard_count": f"how many shards the bot has in all (a whole number from 1 to {MAX_SHARD_COUNT}), "
    "or empty",
    "shard_ids": "this process's shards: numbers below SHARD_COUNT (which must be set) "
    "separated by commas, each once (e.g. 0,1), or empty",
    "identify_window": "a number of seconds above 0, at most 60 (Discord's window is 5)",
    "database_wait": "a number of seconds from 0 (no wait) to 600",
    "claim_wait": "a number of seconds from 0 (no wait) to 600",
    "write_wait": "a number of seconds above 0, at most 600",
    "heartbeat_interval": f"a number of seconds from {MIN_INTERVAL:g} to {MAX_INTERVAL:g} (a third "
    f"of health's {MAX_AGE:g})",
}
# Never repeated in an error: a token, and URLs that may carry credentials.
SECRET = {"discord_token", "discord_api_base_url", "discord_gateway_url", "database_url"}


class KnownMistake(ValueError):
    """A bad value whose reason the one-line error gives after what the setting accepts (a
    mistake people make often enough to name)."""


class SettingsError(ReportedError, ValueError):
    """A setting with a bad value, or an unreadable `.env`; the message is one line."""

    exit_code = 2


class Settings(BaseSettings):
    # Later files win; the environment wins over both; empty values count as unset everywhere,
    # and so do values of only spaces (quoted or not): one rule for `.env` and `--env-file`.
    model_config = SettingsConfigDict(
        env_file=(INSTALLATION_DEFAULTS, ".env"),
        env_file_encoding="utf-8",
        extra="ignore",
        env_ignore_empty=True,
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        environment = AsDotenvReads(settings_cls, env_settings)
        assert isinstance(dotenv_settings, DotEnvSettingsSource)
        files = UnpaddedDotEnv(
            settings_cls,
            env_file=dotenv_settings.env_file,  # Settings(_env_file=...)'s, if given
            env_file_encoding=dotenv_settings.env_file_encoding,
        )
        return init_settings, environment, files, file_secret_settings

    discord_token: SecretStr | None = None
    discord_api_base_url: str = DISCORD_API_BASE_URL
    discord_gateway_url: str = DISCORD_GATEWAY_URL
    database_path: Path = Path("glossary-bot.db")
    # postgresql://user:password@host/db selects PostgreSQL instead of the SQLite file above.
    database_url: SecretStr | None = None
    dev_guild_id: int | None = Field(default=None, gt=0)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    # Files or folders of glossary data, separated by the OS path separator (":" on Linux).
    glossary_paths: str = ""
    # A file the bot touches while it is connected and its database is writable (health checks).
    heartbeat_path: Path | None = None
    # Per-user limit shared by /define, mentions and "Explain terms", and one of the same size per
    # moderator command: this many uses per `cooldown_seconds`.
    cooldown_uses: int = Field(default=5, ge=1)
    cooldown_seconds: float = Field(default=10.0, gt=0, allow_inf_nan=False)
    # Each server's own glossary: at most this many terms, and this much UTF-8 text in them.
    max_server_terms: int = Field(default=2000, ge=1)
    max_server_term_bytes: int = Field(default=2 * 1024 * 1024, ge=1024)
    # Megabytes of servers' searchable glossaries kept in memory (estimated; 23 MB a server at
    # its caps): past it the least recently asked are let go, and read again when next asked.
    server_cache_mb: int = Field(default=1024, ge=1)
    # "text" (readable) or "json" (one object per line, for a log system).
    log_format: Literal["text", "json"] = "text"
    # Prometheus metrics on http://METRICS_HOST:METRICS_PORT/metrics; unset: no metrics server.
    # 0: a free port the system picks, named in the log line (tests run several bots at once).
    metrics_port: int | None = Field(default=None, ge=0, le=65535)
    metrics_host: str = "127.0.0.1"
    # Several processes, one bot: how many shards the bot has in all, and which of them this
    # process runs ("0,1"; unset: all of them). SHARD_COUNT unset: Discord's recommended count,
    # all in this process (one unsharded connection when that is 1; see `runner.make_bot`).
    shard_count: int | None = Field(default=None, ge=1, le=MAX_SHARD_COUNT)
    shard_ids: str = ""
    # How long one IDENTIFY keeps its rate-limit bucket (Discord: 5 s); tests shorten it.
    # At most a minute: a longer one keeps every shard waiting its turn, for ever at 1e300.
    identify_window: float = Field(default=5.0, gt=0, le=60, allow_inf_nan=False)
    # How long a PostgreSQL that is not up yet at start (refused, its name not found, starting)
    # is tried again before the bot serves without it: after a reboot it may start first.
    database_wait: float = Field(default=60.0, ge=0, le=600, allow_inf_nan=False)
    # How long a moderator's change (an alias, a term, a suggestion's decision) waits for the
    # database before being told nothing was changed: a database that hangs answered ~120 s late.
    write_wait: float = Field(default=WRITE_WAIT, gt=0, le=600, allow_inf_nan=False)
    # How long a starting process waits for the bot or shards another process still runs (one
    # stopping within its grace: a restart's handover) before refusing to run them too.
    claim_wait: float = Field(default=10.0, ge=0, le=600, allow_inf_nan=False)
    # Seconds between the heartbeat's periodic beats: shorter for a `health --max-age` shorter
    # than the default's 45 s (tests set it short rather than wait beats out).
    heartbeat_interval: float = Field(
        default=HEARTBEAT_INTERVAL, ge=MIN_INTERVAL, le=MAX_INTERVAL, allow_inf_nan=False
    )

    @field_validator("discord_token")
    @classmethod
    def _one_line(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and value.get_secret_value().lower().startswith("bot "):
            raise KnownMistake(
                'pasted with the "Bot " prefix of an HTTP header: give the token alone'
            )
        if value is not None and any(c.isspace() for c in value.get_secret_value()):
            raise ValueError("a space or line break inside the token")
        return value

    @field_validator("glossary_paths")
    @classmethod
    def _not_commas(cls, value: str) -> str:
        # `a.toml,b.toml` is a list written the way most settings write one; a path that exists
        # with a comma in its name is just a name.
        for part in value.split(os.pathsep):
            if "," in part and not Path(part.strip()).expanduser().exists():
                raise KnownMistake(
                    f"{part.strip()!r} is no file or folder, and ',' does not separate paths"
                )
        return value

    @field_validator("database_path", "heartbeat_path")
    @classmethod
    def _home(cls, value: Path | None) -> Path | None:
        # `.env` is read without a shell: `~/glossary-bot.db` meant the home folder, not a
        # folder named "~" in the working directory.
        return None if value is None else value.expanduser()

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("metrics_host")
    @classmethod
    def _host(cls, value: str) -> str:
        return value.strip() or "127.0.0.1"  # only spaces: like empty, the default

    @field_validator("discord_api_base_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        return _plain_url(value, {"http", "https"})

    @field_validator("discord_gateway_url")
    @classmethod
    def _ws_url(cls, value: str) -> str:
        return _plain_url(value, {"ws", "wss"})

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and scheme(value.get_secret_value().strip()) not in (
            "postgresql",
            "postgres",
        ):
            raise ValueError("not a postgresql:// URL")
        if value is None:
            return None
        url = value.get_secret_value().strip()
        if credentials_problem(url):
            raise KnownMistake(PERCENT_ENCODE)
        if problem := port_problem(url):  # the URL shown: its user and host are no secret
            raise KnownMistake(f"{without_password(url)}: {problem}")
        # Used as checked: spaces inside the quotes of `.env` are no part of the database name.
        return SecretStr(url)

    @field_validator("shard_ids")
    @classmethod
    def _shards_fit(cls, value: str, info: ValidationInfo) -> str:
        ids = shard_numbers(value)
        if "shard_count" not in info.data:  # SHARD_COUNT itself is bad, and reported alone
            return value
        count = info.data["shard_count"]
        if ids is not None and (count is None or any(i >= count for i in ids)):
            raise ValueError("shard ids without SHARD_COUNT, or not below it")
        return value

    @property
    def shard_id_list(self) -> list[int] | None:
        """The shards this process runs, or None: every shard (of SHARD_COUNT, if set)."""
        return shard_numbers(self.shard_ids)

    @property
    def sharded(self) -> bool:
        """Run as an auto-sharded client (SHARD_COUNT set)."""
        return self.shard_count is not None

    @property
    def database_location(self) -> str | Path:
        """What `Store.open` takes: the PostgreSQL URL when set, else the SQLite file."""
        return self.database_url.get_secret_value() if self.database_url else self.database_path

    @property
    def glossary_path_list(self) -> list[Path] | None:
        parts = [p for p in self.glossary_paths.split(os.pathsep) if p.strip()]
        return [Path(p.strip()).expanduser() for p in parts] or None


_EXPORT = re.compile(r"^export\s+", re.IGNORECASE)  # any whitespace after it, as dotenv's


def _setting_name(name: str) -> str:
    """An environment variable's name as `.env` reads it, in lower case: without the byte-order
    mark of an env file saved by Notepad, the spaces of `NAME = value`, or `export ` (or a tab
    after it), all of which `docker/podman --env-file` passes as part of the name."""
    name = _EXPORT.sub("", name.lstrip("\ufeff").strip())
    return name.strip().lower()


class AsDotenvReads(PydanticBaseSettingsSource):
    """The environment read as `.env` is read, also where `docker/podman --env-file` passed a
    line literally: surrounding spaces and one pair of quotes dropped (only spaces: unset, so
    `.env` or the installation's default applies), and a name spelled as `_setting_name` reads
    (`export NAME`, `NAME `, a byte-order mark) taken for NAME."""

    def __init__(self, settings_cls: type[BaseSettings], environment: PydanticBaseSettingsSource):
        super().__init__(settings_cls)
        self.environment = environment

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # all in __call__

    def __call__(self) -> dict[str, Any]:
        spelled = {
            _setting_name(name): value
            for name, value in os.environ.items()
            if _setting_name(name) != name.lower()
        }
        fields = self.settings_cls.model_fields
        values = {k: v for k, v in spelled.items() if k in fields} | self.environment()
        cleaned = {k: _unquoted(k, v) if isinstance(v, str) else v for k, v in values.items()}
        return _set_only(cleaned)


class UnpaddedDotEnv(DotEnvSettingsSource):
    """`.env` (and the installation's defaults), each file's values with their surrounding
    spaces dropped, inside quotes too, as the environment's are (`AsDotenvReads`):
    python-dotenv keeps the space of `NAME=" "`, which `--env-file` passes as `" "`, the
    default. Only spaces: unset, so the file beneath (or the default) applies."""

    def _read_env_file(self, file_path: Path) -> Mapping[str, str | None]:
        _refuse_unreadable_lines(file_path, self.env_file_encoding)
        read = super()._read_env_file(file_path)
        return _set_only({k: v.strip() if v is not None else v for k, v in read.items()})


_SETTING_LINE = re.compile(r"\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=")


def _refuse_unreadable_lines(file_path: Path, encoding: str | None) -> None:
    """SettingsError naming a setting whose line in an env file python-dotenv cannot read (a
    quote that does not close, words after the closing one): dotenv drops the line, logging
    only its number, so `DISCORD_TOKEN="abc` was "DISCORD_TOKEN is not set" and a LOG_LEVEL so
    written the default, without a word (outsider77). Said as the same value given through the
    environment is (`_unquoted`). Other names' lines are left to dotenv's warning."""
    from dotenv.parser import parse_stream

    with Path(file_path).open(encoding=encoding) as stream:
        for binding in parse_stream(stream):
            named = _SETTING_LINE.match(binding.original.string) if binding.error else None
            if named and _setting_name(named[1]) in Settings.model_fields:
                where = f"line {binding.original.line} of {file_path}"
                raise SettingsError(
                    f"bad setting: {named[1].upper()} ({where}) is not read: {_NOT_READ}"
                )


def _set_only(values: Mapping[str, T]) -> dict[str, T]:
    """Without the empty values: unset, so a source beneath (or the default) applies."""
    return {k: v for k, v in values.items() if v != ""}


# Read from the environment beside the settings (`bot/cachedir.py`): a name, not a mistake.
_ALSO_READ = frozenset({"glossary_cache_dir"})
# Read from `.env` by compose.yaml, not by the bot (its PostgreSQL's password, which the README
# and compose.yaml have the operator put there): no mistake either.
_COMPOSE_READS = frozenset({"postgres_password"})
# In the environment, among other programs' variables, a name is taken for a mistake when it is
# spelled almost as a setting is (`DATABSE_PATH`), or starts as only the bot's names do.
_OWN_PREFIXES = ("glossary_", "discord_")
_LOOKS_LIKE = 0.85  # difflib's ratio: `TEST_DATABASE_URL` (0.83) is another program's


def unknown_settings() -> list[str]:
    """One line for each name that the settings do not read although it was meant for them: any
    name in `.env` that is no setting (GLOSSARY_CACHE_DIR included: it is read from the
    environment only), and in the environment one spelled almost as a setting is, or starting
    with GLOSSARY_ or DISCORD_. Said at start: otherwise the typo of
    `DATABSE_PATH` leaves the database at the default path without a word."""
    known = set(Settings.model_fields) | _ALSO_READ
    in_dotenv = DotEnvSettingsSource(Settings, env_file=".env").env_vars
    in_environment = [_setting_name(name) for name in os.environ]
    named = dict.fromkeys(in_dotenv, " in .env")
    for name in in_environment:
        named.setdefault(name, "")
    lines = []
    for name, where in named.items():
        if name in _ALSO_READ and where and name not in in_environment:
            lines.append(f"{name.upper()}{where} is not read: set it in the environment instead")
            continue
        if name in known or name in _COMPOSE_READS:
            continue
        close = difflib.get_close_matches(name, Settings.model_fields, n=1, cutoff=_LOOKS_LIKE)
        if not (where or close or name.startswith(_OWN_PREFIXES)):
            continue
        hint = f"did you mean {close[0].upper()}?" if close else "see .env.example for the settings"
        lines.append(f"{name.upper()}{where} is not a setting, so it is ignored: {hint}")
    return lines


def shard_numbers(text: str) -> list[int] | None:
    """`0, 1` as [0, 1]; None for an empty text. ValueError for anything else, or a repeat."""
    parts = [part.strip() for part in text.split(",")]
    if parts == [""]:
        return None
    if not all(part.isdigit() and part.isascii() for part in parts):
        raise ValueError("not shard numbers separated by commas")
    ids = [int(part) for part in parts]
    if len(set(ids)) != len(ids):
        raise ValueError("a shard listed twice")
    return ids


def _plain_url(value: str, schemes: set[str]) -> str:
    try:
        parts = urlsplit(value.strip())
        ok = parts.scheme in schemes and bool(parts.hostname) and parts.port != -1
    except ValueError:  # a bad port, a bracket that does not close
        ok = False
    if not ok or "@" in parts.netloc:
        raise ValueError("not a plain URL")
    return value.strip()


# As python-dotenv reads a `.env` line's value (its parser's expressions): in quotes, the text
# up to the closing quote (a backslash escapes the character after it, decoded as dotenv decodes
# it), then perhaps a comment (its '#' may follow the closing quote directly); or unquoted, up to
# whitespace before a '#' (a '#' with none before it is the value's own).
_QUOTED = {
    '"': re.compile(r'"((?:\\.|[^"\\])*)"', re.DOTALL),
    "'": re.compile(r"'((?:\\.|[^'\\])*)'", re.DOTALL),
}
_ESCAPES = {'"': re.compile(r"\\[\\'\"abfnrtv]"), "'": re.compile(r"\\[\\']")}
_AFTER_QUOTE = re.compile(r"(\s*#.*)?\s*", re.DOTALL)
_COMMENT = re.compile(r"\s+#.*", re.DOTALL)


_NOT_READ = (
    "its quote does not close, or words follow the closing one (.env drops such a line): quote"
    " the whole value, and only a # comment after it"
)


class NotReadable(ValueError):
    """A value `.env` cannot read: python-dotenv drops such a line."""


def _as_dotenv_reads(value: str) -> tuple[str, str]:
    """`value` as `.env` reads it, and the comment read off it ("" for none). NotReadable for a
    quote that does not close, or words after the closing one."""
    quote = value.strip()[:1]
    if quote in _QUOTED:
        quoted = _QUOTED[quote].match(value, len(value) - len(value.lstrip()))
        after = _AFTER_QUOTE.fullmatch(value, quoted.end()) if quoted else None
        if not (quoted and after):
            raise NotReadable(_NOT_READ)
        decoded = _ESCAPES[quote].sub(_decoded, quoted[1])
        return decoded.strip(), (after[1] or "").strip()
    comment = _COMMENT.search(value)
    if comment:
        return value[: comment.start()].strip(), comment[0].strip()
    return value.strip(), ""


def _decoded(escape: re.Match[str]) -> str:
    return codecs.decode(escape[0], "unicode-escape")


def _unquoted(field: str, value: str) -> str:
    try:
        return _as_dotenv_reads(value)[0]
    except NotReadable as exc:
        given = "" if field in SECRET else _shown(value)
        raise SettingsError(f"bad setting: {field.upper()}{given} is not read: {exc}") from None


def comments_read_off() -> list[str]:
    """One line for each setting whose value in the environment ended in a comment, read off as
    `.env` reads one: `--env-file` passes `NAME=value  # why` whole, but a path of the shell's
    own may hold " #" (quoted, it is kept)."""
    lines = []
    for name, given in os.environ.items():
        field = _setting_name(name)
        if field not in Settings.model_fields:
            continue
        value, comment = _as_dotenv_reads(given)
        if not comment:
            continue
        said = "" if field in SECRET else f" as {value!r}, {comment!r} read as a comment"
        lines.append(
            f"{field.upper()} is read{said}: in an env file what follows whitespace and '#' is a"
            " comment, as in .env; quote the value to keep a '#' in it"
        )
    return lines


def load_settings() -> Settings:
    """The settings, or SettingsError saying in one line which setting is wrong and what it takes."""
    dotenv_log = logging.getLogger("dotenv.main")
    dotenv_log.addFilter(_unparsed_line)
    try:
        return Settings()
    except ValidationError as exc:
        raise SettingsError(describe(exc)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"cannot read the .env file: {exc}") from None
    finally:
        dotenv_log.removeFilter(_unparsed_line)


def _unparsed_line(record: logging.LogRecord) -> bool:
    """python-dotenv's "could not parse statement starting at line N", dropped while the
    settings are read: pydantic-settings reads `.env` once more than the bot does, so it was said
    twice before logging was set up; a setting's line is said by `_refuse_unreadable_lines`,
    naming it, and another name's by `run`'s check of the names in `.env` (`unknown_settings`)."""
    return not record.getMessage().startswith("python-dotenv could not parse")


def describe(exc: ValidationError) -> str:
    problems = []
    for field in dict.fromkeys(str(err["loc"][0]) for err in exc.errors() if err["loc"]):
        name = field.upper()
        given = _source(field)
        problems.append(f"{name}{given} is not valid: expected {ACCEPTS.get(field, 'a value')}")
        mistakes = [
            str(err["ctx"]["error"])
            for err in exc.errors()
            if err["loc"]
            and err["loc"][0] == field
            and isinstance(err.get("ctx", {}).get("error"), KnownMistake)
        ]
        problems[-1] += "".join(f" ({reason})" for reason in mistakes)
        inputs = [err.get("input") for err in exc.errors() if err["loc"] and err["loc"][0] == field]
        if field not in SECRET and (comma := _comma_in_number(field, inputs)):
            problems[-1] += f" ({comma})"
    return "bad setting: " + "; ".join(problems or ["the settings could not be read"])


_GROUPED = re.compile(r"[+-]?\d{1,3}(?:,\d{3})+")


def _comma_in_number(field: str, inputs: list[object]) -> str | None:
    """Why a number setting given with a comma (`MAX_SERVER_TERMS=2,000`) is refused, saying how
    to write it, or None. No number setting takes one: "2,5" is 2.5 in some places and 25 in
    others, and a comma separates the numbers of SHARD_IDS; the README's settings write none."""
    annotation = str(Settings.model_fields[field].annotation)
    if "int" not in annotation and "float" not in annotation:
        return None
    given = next((v.strip() for v in inputs if isinstance(v, str) and "," in v), None)
    if given is None:
        return None
    why = "a number setting takes digits alone, as “2,5” reads 2.5 in some places, 25 in others"
    if _GROUPED.fullmatch(given):
        return f"write {given.replace(',', '')}, without commas: {why}"
    return f"without commas, a decimal point a dot: {why}"


def _environment_value(field: str) -> str | None:
    """The environment's value for `field`, under any name `_setting_name` reads as it (`export
    NAME`, `NAME `), None when `.env` gave it."""
    given = os.environ.get(field.upper())
    if given is not None:
        return given
    spelled = (value for name, value in os.environ.items() if _setting_name(name) == field)
    return next(spelled, None)


def _source(field: str) -> str:
    """Where the setting `field` came from, one way for every setting: the environment's value
    (`=value`; a secret's, never shown: " (from the environment)"), else the env file that gave
    it (" (from .env)", or the installation's defaults file)."""
    from dotenv import dotenv_values

    given = _environment_value(field)
    if given is not None:
        return " (from the environment)" if field in SECRET else _shown(given)
    for file in (".env", INSTALLATION_DEFAULTS):  # the later file wins, as Settings reads them
        try:
            named = {_setting_name(k) for k, v in dotenv_values(file).items() if v and v.strip()}
        except (OSError, UnicodeDecodeError):
            continue
        if field in named:
            return f" (from {file})"
    return " (from .env)"


def _shown(value: str) -> str:
    text = value if len(value) <= 40 else value[:40] + "..."
    return "=" + text.encode("unicode_escape").decode("ascii")
