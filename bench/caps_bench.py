"""One server at its caps while others are served: `/define` and autocomplete latency.

    .venv/bin/python bench/caps_bench.py [--queries 150] [--busy 4]

`glossary-bot run` as its own process against the fake Discord (tests/fake_discord), on a real
SQLite file where server A holds 2,000 terms of ~100-character titles and ~900 characters of
text (1.95 MiB, near the 2 MiB cap) and 1,000 aliases of 100 Cyrillic characters; server B has
nothing of its own. Three phases in one run, the same kinds of requests in each (`/define` of
names, typos and descriptions; keystroke-by-keystroke autocomplete):

- quiet: B's requests alone (the baseline);
- plain busy: B's requests while `--busy` members of server C, which has nothing of its own,
  type and look up the same texts without pause (what any busy server costs B: one process,
  one event loop, and the fake on the same cores);
- busy: B's requests while `--busy` members of A do the same in A (long shared prefixes of its
  titles, its aliases): what a full server costs B beyond that is busy / plain busy;
- full: A's own requests alone.

Each time is from sending the interaction to its answer (the card, or the choices), so the
fake's own work is in every phase alike. A's terms are embedded before the bot starts (in this
process, into GLOSSARY_CACHE_DIR; the first run takes minutes, later runs find them cached), so
that the bot is not embedding them meanwhile (`bench/term_meaning_bench.py` and
tests/resilience/test_term_meaning_load.py cover that). Target: B's p99 busy within 2x plain
busy, and every answer well inside Discord's 3 s. The last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.cachedir import default_cache_dir  # noqa: E402
from bot.discord_app.state import BotState  # noqa: E402
from bot.glossary import Glossary, load_glossary  # noqa: E402
from bot.glossary.interchange import parse_import  # noqa: E402
from bot.storage import AliasImport, Store  # noqa: E402
from bot.term_storage import TermChange, change_terms  # noqa: E402
from tests.fake_discord import FakeChannel, FakeDiscord, FakeUser  # noqa: E402
from tests.outsider.full_server import SEED as FULL_SERVER_SEED  # noqa: E402
from tests.outsider.full_server import full_server_file  # noqa: E402
from tests.resilience.botproc import BotProcess  # noqa: E402

SEED = 20261202
CYRILLIC = "абвгдежзийклмнопрстуфхцчшщэюя"
BUNDLED_QUERIES = [
    "rag",
    "kv cache",
    "lora",
    "kv cahce",
    "speculative decoding",
    "quantisation",
    "what is a context window",
    "shrinking a model so it runs on a laptop",
    "mixture of experts",
    "fine tuning",
]


async def fill(db: Path, guild: int, glossary: Glossary, terms: int, aliases: int) -> list[str]:
    """Server A at its caps; its names (titles, then aliases) for its members' requests."""
    rng = random.Random(FULL_SERVER_SEED)  # A's terms as round 8's tests write them: one cache
    parsed, problems = parse_import(
        full_server_file(terms, rng=rng), "a.toml", glossary, max_bytes=2**30, max_terms=terms
    )
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        raise SystemExit(f"the generated terms do not check: {errors[:3]}")
    ids = [t.id for t in parsed]
    texts = []
    for _ in range(aliases):
        texts.append(" ".join("".join(rng.choices(CYRILLIC, k=9)) for _ in range(10))[:100].strip())
    store = await Store.open(db, flush_interval=None)
    try:
        await change_terms(store, guild, lambda *_: (TermChange(put=tuple(parsed)), None), 1)
        await store.import_aliases(
            [AliasImport(guild, t, t, ids[n % len(ids)]) for n, t in enumerate(texts)]
        )
    finally:
        await store.close()
    return [t.title for t in parsed] + texts


async def embed_ahead(db: Path, guild: int, glossary: Glossary) -> float:
    """A's terms embedded into the cache the bot reads, as the bot would embed them."""
    started = time.perf_counter()
    store = await Store.open(db, flush_interval=None)
    try:
        state = BotState(glossary, store)
        await state.servers.get(guild)
        await state.servers.embedded(guild)
        state.servers.close()
    finally:
        await store.close()
    return time.perf_counter() - started


Request = Callable[[], Awaitable[object]]


def requests(
    fake: FakeDiscord, user: FakeUser, channel: FakeChannel, queries: Sequence[str]
) -> list[Request]:
    """For each query: its autocomplete keystrokes (every third), then `/define` of it."""

    def define(text: str) -> Request:
        async def run() -> object:
            handle = await fake.slash(user, "define", {"term": text}, channel=channel)
            return await handle.final_message()

        return run

    def complete(text: str) -> Request:
        async def run() -> object:
            handle = await fake.autocomplete(
                user, "define", {"term": text}, focused="term", channel=channel
            )
            return await handle.choices()

        return run

    steps: list[Request] = []
    for query in queries:
        steps += [complete(query[:n]) for n in range(3, min(len(query), 40) + 1, 3)]
        steps.append(define(query))
    return steps


async def timed(steps: Sequence[Request]) -> list[float]:
    times = []
    for step in steps:
        started = time.perf_counter()
        await step()
        times.append(time.perf_counter() - started)
    return times


async def keep_busy(steps: Sequence[Request], stop: asyncio.Event) -> int:
    done = 0
    while not stop.is_set():
        for step in steps:
            if stop.is_set():
                break
            await step()
            done += 1
    return done


def pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def summary(values: Sequence[float]) -> dict[str, float]:
    return {
        "n": len(values),
        "p50_ms": round(pct(values, 0.5), 2),
        "p99_ms": round(pct(values, 0.99), 2),
        "max_ms": round(max(values) * 1000, 2),
    }


def bot_settings(cache: Path) -> dict[str, str]:
    """A benched bot's settings: warnings only, a cooldown no bench user meets, `cache` the
    embedding cache."""
    return {
        "LOG_LEVEL": "WARNING",
        "COOLDOWN_USES": "1000000",
        "COOLDOWN_SECONDS": "1",
        "GLOSSARY_CACHE_DIR": str(cache),
    }


def summary_line(
    label: str, figures: dict[str, Any], number: str = "8.1f", n: int = 5, most: bool = True
) -> str:
    """One printed row of summary()'s figures (`number`: their format; `most`: with the max)."""
    line = f"{label} n={figures['n']:{n}} p50 {figures['p50_ms']:{number}} ms  "
    line += f"p99 {figures['p99_ms']:{number}} ms"
    return line + (f"  max {figures['max_ms']:{number}} ms" if most else "")


def add_ratios(result: dict[str, Any], ratios: dict[str, tuple[str, str]]) -> None:
    """result[name + "_p50"] and ["_p99"]: a phase's figure over its base phase's, per name."""
    for name, (phase, base) in ratios.items():
        for key in ("p50_ms", "p99_ms"):
            result[f"{name}_{key[:3]}"] = round(result[phase][key] / result[base][key], 2)


async def measure(queries: int, busy: int, terms: int, aliases: int, cache: Path) -> dict:
    glossary = load_glossary()
    rng = random.Random(SEED)
    with tempfile.TemporaryDirectory(prefix="caps-bench-") as tmp:
        folder = Path(tmp)
        db = folder / "caps.db"
        async with FakeDiscord(wait_timeout=60.0) as fake:
            fake.settle_before_actions = False  # each settle costs the bot a gateway send
            full, other, plain = (fake.add_guild(n) for n in ("Full", "Other", "Plain"))
            full_channel, other_channel, plain_channel = (
                g.add_text_channel("general") for g in (full, other, plain)
            )
            people = [fake.add_user(f"user{n}") for n in range(busy + 2)]
            for user in people:
                for guild in (full, other, plain):
                    guild.add_member(user)
            names = await fill(db, full.id, glossary, terms, aliases)
            print(f"filled server A: {terms} terms, {aliases} aliases", file=sys.stderr)
            seconds = await embed_ahead(db, full.id, glossary)
            print(f"A's terms embedded ahead in {seconds:.0f} s", file=sys.stderr)

            b_queries = [rng.choice(BUNDLED_QUERIES) for _ in range(queries)]
            a_queries = [
                rng.choice(
                    [rng.choice(names[:terms]), rng.choice(names[terms:]), rng.choice(b_queries)]
                )
                for _ in range(queries)
            ]
            settings = bot_settings(cache)
            async with BotProcess(fake, db, cwd=folder, **settings) as bot:
                tester, member = people[0], people[1]
                b_steps = requests(fake, tester, other_channel, b_queries)
                a_steps = requests(fake, member, full_channel, a_queries)
                await timed(b_steps[:20] + a_steps[:20])  # both servers loaded once
                quiet = await timed(b_steps)
                busy_texts = [rng.sample(names, 40) for _ in range(busy)]

                async def b_while_busy(channel: FakeChannel) -> list[float]:
                    stop = asyncio.Event()
                    workers = [
                        asyncio.create_task(
                            keep_busy(requests(fake, people[2 + n], channel, texts), stop)
                        )
                        for n, texts in enumerate(busy_texts)
                    ]
                    try:
                        return await timed(b_steps)
                    finally:
                        stop.set()
                        await asyncio.gather(*workers)

                plain_loaded = await b_while_busy(plain_channel)
                loaded = await b_while_busy(full_channel)
                own = await timed(a_steps)
                await bot.stop()
    result = {
        "terms": terms,
        "aliases": aliases,
        "busy_members": busy,
        "b_quiet": summary(quiet),
        "b_while_plain_busy": summary(plain_loaded),
        "b_while_a_busy": summary(loaded),
        "a_own": summary(own),
    }
    ratios = {
        "full_busy_vs_plain_busy": ("b_while_a_busy", "b_while_plain_busy"),
        "full_busy_vs_quiet": ("b_while_a_busy", "b_quiet"),
        "a_own_vs_b_quiet": ("a_own", "b_quiet"),
    }
    add_ratios(result, ratios)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--queries", type=int, default=150, help="queries per phase")
    parser.add_argument("--busy", type=int, default=4, help="members of A busy meanwhile")
    parser.add_argument("--terms", type=int, default=2000)
    parser.add_argument("--aliases", type=int, default=1000)
    args = parser.parse_args(argv)
    cache = default_cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    result = asyncio.run(measure(args.queries, args.busy, args.terms, args.aliases, cache))
    for phase in ("b_quiet", "b_while_plain_busy", "b_while_a_busy", "a_own"):
        print(summary_line(f"{phase:18}", result[phase], "7.2f"))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
