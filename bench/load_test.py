"""Load: simulated users typing with autocomplete, running /define and clicking related terms.

Run: .venv/bin/python bench/load_test.py [--users 50] [--seconds 60] [--think 0] [--json]
     [--postgres URL]

The bot runs as `glossary-bot run` in a process of its own, with the bundled glossary and a real
SQLite file, against the fake Discord in this process (tests/fake_discord), which checks every
reply as Discord would: an initial response later than 3 s, a second response, an invalid body
or a ping is a violation. Each user loops: type a query a few letters at a time (an autocomplete
request per step), run /define with the choice picked (or the text typed), and click one of the
card's related-term buttons. Users go as fast as their answers come (`--think 0`: a stress test;
the per-user cooldown is raised so that it does not answer them instead).

With `--postgres URL` the bot is two processes of two shards each (SHARD_COUNT=4, SHARD_IDS 0,1
and 2,3) sharing a fresh schema in that PostgreSQL database (dropped after), with guilds on every
shard and the IDENTIFY rate limit enforced.

At the end the bot is stopped with SIGTERM and the lookups and misses in its database are
compared with the cards and "no entry" answers the users received. The last line printed is
one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import sqlite3
import sys
import tempfile
from collections import Counter
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: the fake Discord lives in tests/
    sys.path.insert(0, str(ROOT))

from bot.glossary import Glossary, load_glossary  # noqa: E402
from tests.fake_discord import FakeChannel, FakeDiscord, FakeUser, InteractionHandle  # noqa: E402
from tests.resilience.botproc import BotProcess  # noqa: E402

DEADLINE = 3.0  # Discord's time to the initial response
SHARDS = 4  # with --postgres: two processes of two shards each
IDENTIFY_WINDOW = 0.5  # the fake's IDENTIFY rate limit then (Discord's is 5 s): a quick start
AUTOCOMPLETE, DEFINE, CLICK = "autocomplete", "define", "click"
JSON = dict[str, Any]


# -- what the users type ------------------------------------------------------------------------


def queries(glossary: Glossary) -> list[str]:
    """Titles, acronyms and aliases as people type them, with typos and a few nonsense words."""
    names: list[str] = []
    for entry in glossary:
        names.append(entry.title)
        if entry.acronym:
            names.append(entry.acronym)
        names.extend(entry.aliases[:2])
    rng = random.Random(7)
    typos = []
    for name in rng.sample(names, len(names) // 5):
        if len(name) > 5:
            i = rng.randrange(1, len(name) - 2)
            typos.append(name[:i] + name[i + 1] + name[i] + name[i + 2 :])
    nonsense = [f"zq{rng.randrange(10**6):06d} thing" for _ in range(len(names) // 20)]
    return [q.lower() if rng.random() < 0.5 else q for q in names + typos + nonsense]


def typing_steps(query: str, rng: random.Random) -> list[str]:
    """What the autocomplete box holds as the user types: two or three prefixes."""
    cuts = sorted({min(len(query), n) for n in (2, rng.randint(3, 6), len(query))})
    return [query[:n] for n in cuts if n > 0]


# -- one user -----------------------------------------------------------------------------------


@dataclass
class Sample:
    kind: str
    ack: float  # seconds from delivery to the accepted initial response
    answer: float  # seconds from delivery to the message the user reads
    sent_at: float


@dataclass
class Tally:
    samples: list[Sample] = field(default_factory=list)
    lookups: Counter[int] = field(default_factory=Counter)  # guild id -> cards shown
    misses: Counter[int] = field(default_factory=Counter)  # guild id -> "no entry" answers
    unanswered: list[str] = field(default_factory=list)


def answer_time(handle: InteractionHandle) -> float:
    """When the user could read the answer: the message response, or the follow-up or edit
    that replaced a deferred ("thinking") one."""
    ack = handle.response_latency
    assert ack is not None
    if (handle.callback or {}).get("type") != 5:
        return ack
    later = [
        r.elapsed
        for r in handle.records
        if r.kind in ("followup", "edit_original") and r.status < 300
    ]
    return min(later) if later else ack


def record(tally: Tally, kind: str, handle: InteractionHandle) -> None:
    if handle.response_latency is None or handle.sent_at is None:
        tally.unanswered.append(f"{kind} {handle.id}")
        return
    tally.samples.append(Sample(kind, handle.response_latency, answer_time(handle), handle.sent_at))


def open_buttons(message: JSON) -> list[str]:
    ids = []
    for row in message.get("components") or []:
        for item in row.get("components") or []:
            if item.get("type") == 2 and str(item.get("custom_id", "")).startswith("gb:open:"):
                ids.append(item["custom_id"])
    return ids


async def settled(tally: Tally, kind: str, handle: InteractionHandle) -> JSON | None:
    """The message the user reads, recorded; None if none came (counted unanswered: the bot
    missed Discord's deadline, 10062, and the fake's wait ran out), so the run still reports."""
    try:
        message = await handle.final_message()
    except TimeoutError:
        tally.unanswered.append(f"{kind} {handle.id}")
        return None
    record(tally, kind, handle)
    return message


async def user_loop(
    fake: FakeDiscord,
    user: FakeUser,
    channel: FakeChannel,
    words: Sequence[str],
    until: float,
    think: float,
    seed: int,
    tally: Tally,
) -> None:
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    guild_id = channel.guild_id or 0
    while loop.time() < until:
        query = rng.choice(words)
        picked: str | None = None
        for text in typing_steps(query, rng):
            handle = await fake.autocomplete(
                user, "define", {"term": text}, focused="term", channel=channel
            )
            try:
                choices = await handle.choices()
            except TimeoutError:
                tally.unanswered.append(f"{AUTOCOMPLETE} {handle.id}")
                continue
            record(tally, AUTOCOMPLETE, handle)
            # The user picks the first choice once it shows what they mean.
            if choices and choices[0]["name"].lower().startswith(query.lower()[:4]):
                picked = str(choices[0]["value"])
        handle = await fake.slash(user, "define", {"term": picked or query}, channel=channel)
        message = await settled(tally, DEFINE, handle)
        if message is None:
            continue
        if message.get("embeds"):
            tally.lookups[guild_id] += 1
        elif str(message.get("content", "")).startswith("No entry for"):
            tally.misses[guild_id] += 1
        buttons = open_buttons(message)
        if buttons:
            await asyncio.sleep(think)  # reading the card: simulated user behaviour
            click = await fake.click(user, message, rng.choice(buttons))
            clicked = await settled(tally, CLICK, click)
            if clicked is not None and clicked.get("embeds"):
                tally.lookups[guild_id] += 1
        await asyncio.sleep(think)


# -- the run ------------------------------------------------------------------------------------


def total(values: Iterable[float | None]) -> float:
    """A sum over the bot processes (a figure a process could not give counts as 0)."""
    return sum(value or 0.0 for value in values)


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100); 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(p / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def latency_summary(values: Sequence[float]) -> JSON:
    return {
        "n": len(values),
        "p50_ms": round(percentile(values, 50) * 1000, 1),
        "p90_ms": round(percentile(values, 90) * 1000, 1),
        "p99_ms": round(percentile(values, 99) * 1000, 1),
        "max_ms": round(max(values, default=0.0) * 1000, 1),
    }


def max_in_flight(samples: Sequence[Sample]) -> int:
    events = sorted(
        [(s.sent_at, 1) for s in samples] + [(s.sent_at + s.answer, -1) for s in samples]
    )
    most = now = 0
    for _, step in events:
        now += step
        most = max(most, now)
    return most


async def stored_in_postgres(url: str) -> tuple[Counter[int], Counter[int], str]:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        lookups = Counter(
            {r[0]: int(r[1]) for r in await conn.fetch(f"{SUMS} FROM lookups GROUP BY scope")}
        )
        misses = Counter(
            {r[0]: int(r[1]) for r in await conn.fetch(f"{SUMS} FROM misses GROUP BY scope")}
        )
    finally:
        await conn.close()
    return lookups, misses, "ok"  # PostgreSQL checks its own pages


SUMS = "SELECT scope, sum(count)"


@contextlib.asynccontextmanager
async def schema_or_sqlite(url: str | None) -> AsyncIterator[str | None]:
    """A schema of its own in the PostgreSQL database at `url`, dropped after (None: SQLite)."""
    if url is None:
        yield None
        return
    from tests.storage.conftest import fresh_schema

    async with fresh_schema(url, prefix="load") as schema_url:
        yield schema_url


def stored(db: Path) -> tuple[Counter[int], Counter[int], str]:
    conn = sqlite3.connect(db)
    try:
        lookups = Counter(
            dict(conn.execute("SELECT scope, sum(count) FROM lookups GROUP BY scope"))
        )
        misses = Counter(dict(conn.execute("SELECT scope, sum(count) FROM misses GROUP BY scope")))
        integrity = str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()
    return lookups, misses, integrity


@contextlib.contextmanager
def workdir(path: Path | None) -> Iterator[Path]:
    if path is not None:
        path.mkdir(parents=True, exist_ok=True)
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="glossary-load-") as tmp:
        yield Path(tmp)


async def run_load(
    users: int = 50,
    seconds: float = 60.0,
    *,
    think: float = 0.0,
    guilds: int = 2,
    seed: int = 1,
    work: Path | None = None,
    postgres: str | None = None,
) -> JSON:
    """Run the load and return the figures (see the module docstring)."""
    words = queries(load_glossary())
    shards = SHARDS if postgres else 1
    with workdir(work) as folder:
        db = folder / "load.db"
        # A guard against hangs only: every wait wakes on the fake's events.
        fake = FakeDiscord(
            wait_timeout=60.0,
            shard_count=shards,
            identify_window=IDENTIFY_WINDOW,
            enforce_identify_limit=True,
        )
        async with schema_or_sqlite(postgres) as url, fake:
            # Users act without waiting for the bot to settle: settle() costs the bot a
            # rate-limited gateway send per action (see FakeDiscord.settle_before_actions), and
            # cards need no settling (their buttons are dynamic items, not views in memory).
            fake.settle_before_actions = False
            channels = []
            shard_of: dict[int, int] = {}  # guild id -> the shard (and so the process) it is on
            for g in range(max(guilds, shards)):
                guild = fake.add_guild(f"Load Lab {g + 1}", shard=g % shards)
                shard_of[guild.id] = g % shards
                channels.append(guild.add_text_channel("general"))
            people = []
            for n in range(users):
                user = fake.add_user(f"user{n}")
                channel = channels[n % len(channels)]  # users on every shard: both processes
                fake.world.guilds[channel.guild_id or 0].add_member(user)
                people.append((user, channel))

            settings = {
                "LOG_LEVEL": "WARNING",
                "COOLDOWN_USES": "1000000",  # these users go faster than any person could
                "COOLDOWN_SECONDS": "1",
            }
            if url is None:
                bots = [BotProcess(fake, db, cwd=folder, **settings)]
            else:
                settings |= {
                    "DATABASE_URL": url,
                    "SHARD_COUNT": str(shards),
                    "IDENTIFY_WINDOW": str(IDENTIFY_WINDOW),
                }
                bots = [
                    BotProcess(
                        fake,
                        db,
                        cwd=folder,
                        shards=ids,
                        SHARD_IDS=",".join(map(str, ids)),
                        **settings,
                    )
                    for ids in ([0, 1], [2, 3])
                ]
            await asyncio.gather(*(bot.start() for bot in bots))
            tally = Tally()
            try:
                rss_start = total(bot.rss_kib() for bot in bots)
                cpu_start = total(bot.cpu_seconds() for bot in bots)
                loop = asyncio.get_running_loop()
                started = loop.time()
                until = started + seconds
                await asyncio.gather(
                    *(
                        user_loop(fake, u, c, words, until, think, seed * 1000 + n, tally)
                        for n, (u, c) in enumerate(people)
                    )
                )
                elapsed = loop.time() - started
                rss_end = total(bot.rss_kib() for bot in bots)
                bot_cpu = total(bot.cpu_seconds() for bot in bots) - cpu_start
            finally:
                codes = [await bot.stop() for bot in bots]
                code = max(codes, key=abs)
            violations = [str(v) for v in fake.pop_violations()]
            lookups, misses, integrity = (
                stored(db) if url is None else await stored_in_postgres(url)
            )

    by_kind = {
        kind: [s for s in tally.samples if s.kind == kind] for kind in (AUTOCOMPLETE, DEFINE, CLICK)
    }
    everything = tally.samples
    late = [s for s in everything if s.ack >= DEADLINE]
    return {
        "bench": "load",
        "users": users,
        "seconds": round(elapsed, 1),
        "think_s": think,
        "guilds": max(guilds, shards),
        "backend": "postgresql, 2 processes x 2 shards" if postgres else "sqlite, 1 process",
        "interactions": len(everything),
        "per_second": round(len(everything) / elapsed, 1) if elapsed else 0.0,
        "max_in_flight": max_in_flight(everything),
        "ack": {kind: latency_summary([s.ack for s in v]) for kind, v in by_kind.items()}
        | {"all": latency_summary([s.ack for s in everything])},
        "answer": {kind: latency_summary([s.answer for s in v]) for kind, v in by_kind.items()}
        | {"all": latency_summary([s.answer for s in everything])},
        "late": len(late),
        "unanswered": len(tally.unanswered),
        "lookups_made": sum(tally.lookups.values()),
        "lookups_stored": sum(lookups.values()),
        "lookups_match": lookups == tally.lookups,
        "lookups_stored_by_shard": {
            str(shard): sum(n for guild, n in lookups.items() if shard_of.get(guild) == shard)
            for shard in range(shards)
        },
        "misses_made": sum(tally.misses.values()),
        "misses_stored": sum(misses.values()),
        "misses_match": misses == tally.misses,
        "integrity": integrity,
        "exit_code": code,
        "violations": violations,
        "bot_cpu_share": round(bot_cpu / elapsed, 2) if elapsed else 0.0,
        "bot_rss_mib": {
            "start": round((rss_start or 0) / 1024, 1),
            "end": round((rss_end or 0) / 1024, 1),
        },
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
    }


def print_report(report: JSON) -> None:
    print(
        f"{report['users']} users for {report['seconds']} s (think {report['think_s']} s), "
        f"{report['backend']}, "
        f"{report['interactions']} interactions, {report['per_second']}/s, "
        f"at most {report['max_in_flight']} in flight"
    )
    print(
        f"{'':14}{'n':>7}{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}{'max ms':>9}   (initial response)"
    )
    for kind, row in report["ack"].items():
        print(
            f"{kind:14}{row['n']:>7}{row['p50_ms']:>9}{row['p90_ms']:>9}"
            f"{row['p99_ms']:>9}{row['max_ms']:>9}"
        )
    answer = report["answer"]["all"]
    print(
        f"time to the answer read (after a defer, the follow-up): "
        f"p50 {answer['p50_ms']} ms, p99 {answer['p99_ms']} ms, max {answer['max_ms']} ms"
    )
    print(
        f"late (>= 3 s): {report['late']}, unanswered: {report['unanswered']}, "
        f"violations: {len(report['violations'])}"
    )
    print(
        f"lookups made {report['lookups_made']}, in the database {report['lookups_stored']}; "
        f"misses made {report['misses_made']}, in the database {report['misses_stored']}; "
        f"integrity {report['integrity']}; exit code {report['exit_code']}"
    )
    by_shard = ", ".join(f"{s}: {n}" for s, n in report["lookups_stored_by_shard"].items())
    print(f"lookups in the database by shard: {by_shard}")
    rss = report["bot_rss_mib"]
    print(
        f"bot process(es): {report['bot_cpu_share']:.0%} of a CPU, memory {rss['start']} MiB -> "
        f"{rss['end']} MiB; {report['machine']}"
    )
    for violation in report["violations"][:10]:
        print(f"  violation: {violation}")


def ok(report: JSON) -> bool:
    return bool(
        report["late"] == 0
        and report["unanswered"] == 0
        and not report["violations"]
        and report["lookups_match"]
        and report["misses_match"]
        and report["integrity"] == "ok"
        and report["exit_code"] == 0
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=0.0, help="seconds between a user's steps")
    parser.add_argument("--guilds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print only the JSON line")
    parser.add_argument(
        "--postgres",
        metavar="URL",
        help="two bot processes of two shards each on this PostgreSQL database (a fresh schema)",
    )
    args = parser.parse_args(argv)
    report = asyncio.run(
        run_load(
            args.users,
            args.seconds,
            think=args.think,
            guilds=args.guilds,
            seed=args.seed,
            postgres=args.postgres,
        )
    )
    if not args.json:
        print_report(report)
    print(json.dumps(report))
    return 0 if ok(report) else 1


if __name__ == "__main__":
    raise SystemExit(main())
