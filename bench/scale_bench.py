"""Many servers at their caps in one bot: start-up, memory, and one server's import beside
everyone's `/define`.

    .venv/bin/python bench/scale_bench.py [--servers 50] [--busy 20] [--queries 60]

`glossary-bot run` as its own process against the fake Discord (tests/fake_discord), on a real
SQLite file. Two starts in one run, the same guilds in each:

- empty: the database holds no server's terms or aliases (the baseline);
- full: `--servers` servers each at the caps (2,000 terms of ~100-character titles and 1.95 MiB
  of text, 1,000 aliases of 100 characters), all with the same terms (one set of vectors,
  embedded ahead into GLOSSARY_CACHE_DIR as bench/caps_bench.py does: the first run takes
  minutes; the bot then runs on a copy of that folder), plus a plain server with nothing of its
  own.

For each start: seconds to connect, to the first `/define` answer in the plain server, and (full)
to the first answer in a full server, then one `/define` in every server (each read and indexed)
and the bot's RSS after it. Then, in the full bot: `--busy` full servers' members run `/define`
and autocomplete in turn, quiet (the baseline) and while a moderator of another full server
imports 2,000 changed terms (`/term import`: a write, then minutes of embedding in the bot's
embedding thread), the busy members going on until it answers, then one more pass while the
bot embeds: each answer's time, p50/p99 against quiet, and how many past Discord's 3 s.
The last line is JSON.
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
import time
from collections.abc import Sequence
from pathlib import Path

import discord

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.caps_bench import (  # noqa: E402
    CYRILLIC,
    add_ratios,
    bot_settings,
    embed_ahead,
    requests,
    summary,
    summary_line,
    timed,
)
from bot.cachedir import default_cache_dir  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.glossary.interchange import parse_import  # noqa: E402
from bot.storage import AliasImport, Store  # noqa: E402
from bot.term_storage import TermChange, change_terms  # noqa: E402
from tests.fake_discord import FakeDiscord  # noqa: E402
from tests.outsider.full_server import SEED as FULL_SERVER_SEED  # noqa: E402
from tests.outsider.full_server import full_server_file  # noqa: E402
from tests.resilience.botproc import BotProcess  # noqa: E402

SEED = 20261205
DEADLINE = 3.0  # Discord's, for a first answer


async def fill(db: Path, guilds: Sequence[int], terms: int, aliases: int) -> list[str]:
    """Each of `guilds` at the caps, with the same terms; their titles."""
    glossary = load_glossary()
    parsed, problems = parse_import(
        full_server_file(terms, rng=random.Random(FULL_SERVER_SEED)),
        "a.toml",
        glossary,
        max_bytes=2**30,
        max_terms=terms,
    )
    if any(p.severity == "error" for p in problems):
        raise SystemExit("the generated terms do not check")
    ids = [t.id for t in parsed]
    rng = random.Random(SEED)
    store = await Store.open(db, flush_interval=None)
    try:
        for guild in guilds:
            await change_terms(store, guild, lambda *_: (TermChange(put=tuple(parsed)), None), 1)
            texts = {
                " ".join("".join(rng.choices(CYRILLIC, k=9)) for _ in range(10))[:100].strip()
                for _ in range(aliases)
            }
            await store.import_aliases(
                [AliasImport(guild, t, t, ids[n % len(ids)]) for n, t in enumerate(texts)]
            )
    finally:
        await store.close()
    return [t.title for t in parsed]


async def first_answer(fake: FakeDiscord, user: object, channel: object, text: str) -> dict:
    handle = await fake.slash(user, "define", {"term": text}, channel=channel)  # type: ignore[arg-type]
    return await handle.final_message()


def title_of(message: dict) -> str:
    embeds = message.get("embeds") or []
    return str(embeds[0].get("title", "")) if embeds else ""


async def one_start(
    fake: FakeDiscord,
    db: Path,
    folder: Path,
    settings: dict[str, str],
    people: list,
    plain_channel: object,
    channels: list,
    title: str | None,
) -> tuple[dict, BotProcess]:
    started = time.perf_counter()
    bot = BotProcess(fake, db, cwd=folder, start_timeout=600.0, **settings)
    await bot.start()
    result: dict = {"connect_s": round(time.perf_counter() - started, 2)}
    plain = await first_answer(fake, people[0], plain_channel, "rag")
    result["first_plain_define_s"] = round(time.perf_counter() - started, 2)
    result["first_plain_title"] = title_of(plain)
    if title is not None:
        own = await first_answer(fake, people[0], channels[0], title)
        result["first_full_define_s"] = round(time.perf_counter() - started, 2)
        result["first_full_is_its_term"] = title_of(own) == title
    every = time.perf_counter()
    for channel in channels:
        await first_answer(fake, people[0], channel, title or "rag")
    result["one_define_in_every_server_s"] = round(time.perf_counter() - every, 2)
    result["rss_mib"] = round((bot.rss_kib() or 0) / 1024, 1)
    result["cpu_s"] = round(bot.cpu_seconds() or 0, 1)
    return result, bot


async def measure(servers: int, busy: int, queries: int, terms: int, aliases: int) -> dict:
    rng = random.Random(SEED)
    cache = default_cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    settings = bot_settings(cache)
    result: dict = {"servers": servers, "terms": terms, "aliases": aliases}
    with tempfile.TemporaryDirectory(prefix="scale-bench-") as tmp:
        folder = Path(tmp)
        async with FakeDiscord(wait_timeout=600.0) as fake:
            fake.settle_before_actions = False
            guilds = [fake.add_guild(f"Full {n}") for n in range(servers)]
            plain = fake.add_guild("Plain")
            channels = [g.add_text_channel("general") for g in guilds]
            plain_channel = plain.add_text_channel("general")
            people = [fake.add_user(f"user{n}") for n in range(busy + 1)]
            mods = fake.add_user("mod")
            for guild in [*guilds, plain]:
                for user in people:
                    guild.add_member(user)
                role = guild.add_role(
                    "Mods", permissions=discord.Permissions(manage_guild=True).value
                )
                guild.add_member(mods, roles=[role])

            empty_db = folder / "empty.db"
            figures, bot = await one_start(
                fake, empty_db, folder, settings, people, plain_channel, channels, None
            )
            result["empty"] = figures
            await bot.stop()
            print(f"empty start: {figures}", file=sys.stderr)

            db = folder / "full.db"
            begun = time.perf_counter()
            titles = await fill(db, [g.id for g in guilds], terms, aliases)
            print(
                f"filled {servers} servers in {time.perf_counter() - begun:.0f} s "
                f"({db.stat().st_size / 2**20:.0f} MiB)",
                file=sys.stderr,
            )
            seconds = await embed_ahead(db, guilds[0].id, load_glossary())
            print(f"their terms embedded ahead in {seconds:.0f} s", file=sys.stderr)
            # The bot's own copy of the cache: what the import embeds stays out of the shared
            # one, so every run embeds it again.
            private = folder / "cache"
            shutil.copytree(cache, private)
            settings["GLOSSARY_CACHE_DIR"] = str(private)
            figures, bot = await one_start(
                fake, db, folder, settings, people, plain_channel, channels, titles[0]
            )
            result["full"] = figures
            print(f"full start: {figures}", file=sys.stderr)
            try:
                # The busy servers' members, a request at a time each, all at once.
                texts = [[*rng.sample(titles, 3), "kv cache", "rag"] for _ in range(busy)]
                streams = [
                    requests(fake, people[1 + n], channels[1 + n], texts[n] * queries)[:queries]
                    for n in range(busy)
                ]

                async def everyone() -> list[float]:
                    done = await asyncio.gather(*(timed(s) for s in streams))
                    return [t for times in done for t in times]

                quiet = await everyone()
                changed = full_server_file(terms, rng=random.Random(SEED)).replace(
                    b"Zorbic", b"Zorbix"
                )
                upload = fake.add_attachment("terms.toml", changed)
                started = time.perf_counter()

                async def importing() -> str:
                    handle = await fake.slash(
                        mods, "term import", {"file": upload}, channel=channels[-1]
                    )
                    said = await handle.final_message()
                    return str(said["content"]).split("\n")[0][:120]

                job = asyncio.create_task(importing())
                during: list[float] = []
                while not job.done() or not during:  # the whole import, one pass at least
                    during += await everyone()
                answer = await job
                result["import_answer"] = answer
                result["import_s"] = round(time.perf_counter() - started, 2)
                after = await everyone()  # the bot still embedding the imported terms
            finally:
                await bot.stop()
    result["busy_quiet"] = summary(quiet)
    result["busy_during_import"] = summary(during)
    result["busy_after_import_embedding"] = summary(after)
    for phase in ("busy_during_import", "busy_after_import_embedding"):
        add_ratios(result, {f"{phase}_vs_quiet": (phase, "busy_quiet")})
        late = sum(t > DEADLINE for t in (during if phase == "busy_during_import" else after))
        result[f"{phase}_over_3s"] = late
    result["full_vs_empty_rss"] = round(result["full"]["rss_mib"] / result["empty"]["rss_mib"], 2)
    result["full_vs_empty_first_plain_define"] = round(
        result["full"]["first_plain_define_s"] / result["empty"]["first_plain_define_s"], 2
    )
    result["full_vs_empty_every_server"] = round(
        result["full"]["one_define_in_every_server_s"]
        / result["empty"]["one_define_in_every_server_s"],
        2,
    )
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--servers", type=int, default=50, help="servers at their caps")
    parser.add_argument("--busy", type=int, default=20, help="of them, busy during the import")
    parser.add_argument("--queries", type=int, default=30, help="requests per busy member")
    parser.add_argument("--terms", type=int, default=2000)
    parser.add_argument("--aliases", type=int, default=1000)
    args = parser.parse_args(argv)
    if args.busy >= args.servers:
        parser.error("--busy must be fewer than --servers (one more server imports)")
    result = asyncio.run(measure(args.servers, args.busy, args.queries, args.terms, args.aliases))
    for phase in ("busy_quiet", "busy_during_import", "busy_after_import_embedding"):
        print(summary_line(f"{phase:28}", result[phase]))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
