"""Several servers each at every cap while another server is served: what full servers cost
the others beyond any busy server, and start-up with them all stored.

    .venv/bin/python bench/cross73_bench.py [--full 4] [--busy 3] [--queries 12]

`glossary-bot run` as its own process against the fake Discord (tests/fake_discord), on a real
SQLite file. `--full` servers each hold 2,000 terms of ~100-character titles (1.95 MiB of text,
as bench/scale_bench.py fills them: the same terms, embedded ahead into GLOSSARY_CACHE_DIR),
1,000 aliases of 100 Cyrillic characters and 50 open suggestions (the queue's cap) of
100-character names and 2,000-character definitions (the form's caps). As many plain servers
have nothing of their own, and one more, W, is the one watched.

Two starts, the same guilds in each: the database empty (the baseline), then full: seconds to
connect and to W's first `/define` answer. Then, in the full bot, W's member runs one stream of
requests (each query's autocomplete keystrokes and `/define`, a mention, "Explain terms" on a
message naming it) in three phases:

- quiet: W alone;
- plain busy: while `--busy` members in each plain server run the same kinds of requests without
  pause (what any busy server costs W: one process, one event loop, the fake on the same cores);
- full busy: while `--busy` members in each full server do the same with their own terms' names
  and aliases, and a moderator there runs `/term review` and `/alias list` in turn.

Target: W's p99 full busy within 2x plain busy, nothing past Discord's 3 s. Each time is from
sending the request to its answer. The last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import discord

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.caps_bench import (  # noqa: E402
    CYRILLIC,
    Request,
    add_ratios,
    bot_settings,
    embed_ahead,
    keep_busy,
    requests,
    summary,
    summary_line,
    timed,
)
from bench.scale_bench import fill  # noqa: E402
from bot.cachedir import default_cache_dir  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.limits import SUGGESTION_DEFINITION, SUGGESTION_TITLE  # noqa: E402
from bot.storage import MAX_OPEN_SUGGESTIONS, Store  # noqa: E402
from tests.fake_discord import FakeChannel, FakeDiscord, FakeUser  # noqa: E402
from tests.resilience.botproc import BotProcess  # noqa: E402

SEED = 20261207
DEADLINE = 3.0  # Discord's, for a first answer
MODERATORS = ("term review", "alias list")


async def suggest_to_the_cap(db: Path, guilds: Sequence[int]) -> None:
    """Each guild's suggestion queue full, of names and definitions at their caps."""
    rng = random.Random(SEED)
    store = await Store.open(db, flush_interval=None)
    try:
        for guild in guilds:
            for n in range(MAX_OPEN_SUGGESTIONS):
                name = " ".join("".join(rng.choices(CYRILLIC, k=9)) for _ in range(10))
                words = " ".join("".join(rng.choices(CYRILLIC, k=7)) for _ in range(260))
                status = await store.add_suggestion(
                    guild,
                    10_000 + n,
                    name[:SUGGESTION_TITLE].strip(),
                    words[:SUGGESTION_DEFINITION].strip(),
                    cooldown=0,
                )
                assert status.value == "added", status
    finally:
        await store.close()


GRACE = 5.0  # seconds past Discord's 3 s after which an answer is given up on (lost)


KINDS: dict[Request, str] = {}  # each bounded request's kind, for W's figures by kind


def bounded(step: Request, kind: str) -> Request:
    """`step`, given up on GRACE s past Discord's deadline: a private answer past it is lost
    (Discord takes none), a mention's may never come; the time is then counted as past 3 s."""

    async def run() -> object:
        with contextlib.suppress(TimeoutError):
            return await asyncio.wait_for(step(), DEADLINE + GRACE)
        return None

    KINDS[run] = kind
    return run


def mixed(
    fake: FakeDiscord, user: FakeUser, channel: FakeChannel, queries: Sequence[str]
) -> list[Request]:
    """caps_bench's keystrokes and `/define` of each query, then a mention asking it and
    "Explain terms" on a message naming it (in `channel`, which only `user` writes in)."""

    def mention(text: str) -> Request:
        async def run() -> object:
            await fake.user_message(user, channel, f"{fake.bot.mention} what is {text}?")
            return await fake.wait_for_channel_message(channel)

        return run

    def explain(text: str) -> Request:
        async def run() -> object:
            said = await fake.user_message(user, channel, f"we tried {text} yesterday, and rag")
            handle = await fake.message_command(user, "Explain terms", said)
            return await handle.final_message()

        return run

    steps: list[Request] = []
    for query in queries:
        *keystrokes, define = requests(fake, user, channel, [query])
        steps += [bounded(step, "autocomplete") for step in keystrokes]
        steps += [bounded(define, "define"), bounded(mention(query), "mention")]
        steps.append(bounded(explain(query), "explain"))
    return steps


def moderating(
    fake: FakeDiscord, mod: FakeUser, channel: FakeChannel, names: Sequence[str]
) -> list[Request]:
    def command(name: str) -> Request:
        async def run() -> object:
            handle = await fake.slash(mod, name, {}, channel=channel)
            return await handle.final_message()

        return run

    return [bounded(command(name), name) for name in names]


async def start(
    fake: FakeDiscord,
    db: Path,
    folder: Path,
    settings: dict[str, str],
    user: FakeUser,
    w: FakeChannel,
) -> tuple[dict, BotProcess]:
    started = time.perf_counter()
    bot = BotProcess(fake, db, cwd=folder, start_timeout=600.0, **settings)
    await bot.start()
    figures: dict = {"connect_s": round(time.perf_counter() - started, 2)}
    handle = await fake.slash(user, "define", {"term": "rag"}, channel=w)
    await handle.final_message()
    figures["first_w_define_s"] = round(time.perf_counter() - started, 2)
    return figures, bot


Times = list[tuple[str, float]]  # (kind, seconds)


async def for_a_while(watched: list[Request], seconds: float) -> Times:
    """W's stream, again and again until `seconds` have passed (one pass at least): each
    request's kind and time."""
    times: Times = []
    started = time.perf_counter()
    while not times or time.perf_counter() - started < seconds:
        times += zip([KINDS[step] for step in watched], await timed(watched), strict=True)
    return times


def by_kind(times: Times) -> dict:
    """summary() of all, and of each kind."""
    out = summary([t for _, t in times])
    for kind in sorted({k for k, _ in times}):
        out[kind] = summary([t for k, t in times if k == kind])
    return out


async def while_busy(
    watched: list[Request], others: list[list[Request]], seconds: float
) -> tuple[Times, float]:
    """W's times while every other stream runs on until W is done, and the others' requests
    answered a second meanwhile."""
    stop = asyncio.Event()
    started = time.perf_counter()
    workers = [asyncio.create_task(keep_busy(steps, stop)) for steps in others]
    try:
        times = await for_a_while(watched, seconds)
    finally:
        stop.set()
    done = await asyncio.gather(*workers)
    return times, round(sum(done) / (time.perf_counter() - started), 1)


async def measure(
    full: int,
    busy: int,
    queries: int,
    seconds: float,
    terms: int,
    aliases: int,
    moderators: Sequence[str] = MODERATORS,
) -> dict:
    rng = random.Random(SEED)
    cache = default_cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    settings = bot_settings(cache)
    result: dict = {"full": full, "busy": busy, "terms": terms, "aliases": aliases}
    result["moderators"] = list(moderators)
    with tempfile.TemporaryDirectory(prefix="cross73-bench-") as tmp:
        folder = Path(tmp)
        async with FakeDiscord(wait_timeout=600.0) as fake:
            fake.settle_before_actions = False
            fulls = [fake.add_guild(f"Full {n}") for n in range(full)]
            plains = [fake.add_guild(f"Plain {n}") for n in range(full)]
            watched = fake.add_guild("Watched")
            people = [fake.add_user(f"user{n}") for n in range(busy)]
            me = fake.add_user("watcher")
            mod = fake.add_user("mod")
            channels: dict[int, list[FakeChannel]] = {}
            for guild in [*fulls, *plains, watched]:
                for user in [*people, me]:
                    guild.add_member(user)
                role = guild.add_role(
                    "Mods", permissions=discord.Permissions(manage_guild=True).value
                )
                guild.add_member(mod, roles=[role])
                channels[guild.id] = [guild.add_text_channel(f"c{n}") for n in range(busy + 1)]
            w = channels[watched.id][0]

            began, bot = await start(fake, folder / "empty.db", folder, settings, me, w)
            await bot.stop()
            result["empty_start"] = began
            print(f"empty start: {began}", file=sys.stderr)

            db = folder / "full.db"
            begun = time.perf_counter()
            titles = await fill(db, [g.id for g in fulls], terms, aliases)
            await suggest_to_the_cap(db, [g.id for g in fulls])
            print(
                f"filled {full} servers in {time.perf_counter() - begun:.0f} s "
                f"({db.stat().st_size / 2**20:.0f} MiB)",
                file=sys.stderr,
            )
            embedding = await embed_ahead(db, fulls[0].id, load_glossary())
            for thread in threading.enumerate():  # the cache file written whole before the copy
                if thread.name == "save-term-vectors":
                    thread.join()
            print(f"their terms embedded ahead in {embedding:.0f} s", file=sys.stderr)
            private = folder / "cache"  # the bot's own copy: nothing it writes stays
            shutil.copytree(cache, private)
            settings["GLOSSARY_CACHE_DIR"] = str(private)
            began, bot = await start(fake, db, folder, settings, me, w)
            result["full_start"] = began
            print(f"full start: {began}", file=sys.stderr)
            try:
                bundled = ["kv cache", "rag", "lora", "kv cahce", "mixture of experts"]
                mine = mixed(fake, me, w, bundled * (queries // len(bundled) + 1))[: queries * 8]

                def streams(guilds: list, own: bool) -> list[list[Request]]:
                    out = []
                    for guild in guilds:
                        for n, user in enumerate(people):
                            texts = [*rng.sample(titles, 3), *bundled[:2]] if own else bundled
                            out.append(mixed(fake, user, channels[guild.id][n + 1], texts))
                        if own and moderators:
                            out.append(moderating(fake, mod, channels[guild.id][0], moderators))
                    return out

                for guild in fulls:  # each full server read once, as asked after the start
                    first = requests(fake, me, channels[guild.id][0], [titles[0]])[-1]
                    await bounded(first, "define")()
                await timed(mine)  # one pass first: W's own first reads out of the figures
                quiet = await for_a_while(mine, seconds)
                print(f"quiet: {by_kind(quiet)}", file=sys.stderr)
                plain_busy, plain_done = await while_busy(mine, streams(plains, own=False), seconds)
                print(f"plain busy: {by_kind(plain_busy)}", file=sys.stderr)
                full_busy, full_done = await while_busy(mine, streams(fulls, own=True), seconds)
                result["rss_mib"] = round((bot.rss_kib() or 0) / 1024, 1)
            finally:
                await bot.stop()
    result["w_quiet"] = by_kind(quiet)
    result["w_plain_busy"] = by_kind(plain_busy)
    result["w_full_busy"] = by_kind(full_busy)
    result["others_per_s"] = {"plain_busy": plain_done, "full_busy": full_done}
    add_ratios(result, {"full_vs_plain_busy": ("w_full_busy", "w_plain_busy")})
    result["w_over_3s"] = sum(t > DEADLINE for _, t in [*quiet, *plain_busy, *full_busy])
    for key in ("connect_s", "first_w_define_s"):
        result[f"full_vs_empty_{key}"] = round(
            result["full_start"][key] / result["empty_start"][key], 2
        )
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--full", type=int, default=4, help="servers at every cap")
    parser.add_argument("--busy", type=int, default=3, help="busy members in each other server")
    parser.add_argument("--queries", type=int, default=12, help="W's queries in one pass")
    parser.add_argument("--seconds", type=float, default=30.0, help="each phase, at least")
    parser.add_argument("--terms", type=int, default=2000)
    parser.add_argument("--aliases", type=int, default=1000)
    parser.add_argument(
        "--moderators",
        default=",".join(MODERATORS),
        help="the commands a moderator of each full server runs in turn in full busy ('': none)",
    )
    args = parser.parse_args(argv)
    result = asyncio.run(
        measure(
            args.full,
            args.busy,
            args.queries,
            args.seconds,
            args.terms,
            args.aliases,
            moderators=[name for name in args.moderators.split(",") if name],
        )
    )
    for phase in ("w_quiet", "w_plain_busy", "w_full_busy"):
        print(summary_line(f"{phase:14}", result[phase]))
        for kind, k in result[phase].items():
            if isinstance(k, dict):
                print(summary_line(f"  {kind:14}", k, n=4, most=False))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
