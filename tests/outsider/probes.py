# ruff: noqa
"""Exploratory probes (not part of the suite): `pytest tests/outsider/probes.py -s -k NAME`.
Each prints what a user would see; findings become tests in test_*.py."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from tests.discord_app.helpers import is_ephemeral
from tests.fake_discord import InteractionHandle
from tests.resilience.botproc import BotProcess

from .conftest import Scene

LIMIT = 600


def show(label: str, message: Any) -> None:
    if isinstance(message, dict):
        text = {
            "content": message.get("content"),
            "eph": is_ephemeral(message),
            "embeds": [
                {
                    k: (v if k != "fields" else [f["name"] for f in v])
                    for k, v in e.items()
                    if k in ("title", "description", "fields", "footer")
                }
                for e in message.get("embeds") or []
            ],
            "components": len(message.get("components") or []),
        }
        print(f"[{label}] {json.dumps(text, ensure_ascii=False)[:LIMIT]}")
    else:
        print(f"[{label}] {str(message)[:600]}")


async def answer(handle: InteractionHandle) -> Any:
    try:
        async with asyncio.timeout(20):
            return await handle.final_message()
    except Exception as e:
        return f"NO ANSWER: {type(e).__name__}: {e} callback={handle.callback}"


async def probe_define_inputs(scene: Scene, tmp_path: Path) -> None:
    fake = scene.fake
    inputs = {
        "100": "k" * 100,
        "ws": "   ",
        "zw": "\u200b\u200b",
        "rtl": "\u202erag",
        "nul": "rag\x00",
        "surrogate": "rag\ud800",
        "everyone": "@everyone",
        "role": "<@&1234567890>",
        "link": "[x](https://evil.example)",
        "emoji": "🤖🤖",
        "sql": "'; DROP TABLE aliases;--",
        "path": "../../etc/passwd",
        "ts": "<t:0:R> kv cache",
        "backtick": "```kv cache```",
        "lookalike": "ＲＡＧ",
        "combining": "r\u0301a\u0301g\u0301",
    }
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="1000") as bot:
        print([c["name"] for c in fake.commands()])
        for label, term in inputs.items():
            h = await fake.slash(scene.alice, "define", {"term": term}, channel=scene.channel)
            show(label, await answer(h))
        for label, term in inputs.items():
            h = await fake.autocomplete(
                scene.alice, "define", {"term": term}, focused="term", channel=scene.channel
            )
            try:
                ch = await h.choices()
                print(f"[ac {label}] {len(ch)} {[c['name'] for c in ch][:5]}")
            except Exception as e:
                print(f"[ac {label}] FAIL {e}")
        print("\n".join(l for l in bot.lines if "Traceback" in l or "ERROR" in l or "Error" in l))


async def probe_alias_and_stats_caps(scene: Scene, tmp_path: Path) -> None:
    from tests.resilience.botproc import import_aliases

    fake = scene.fake
    guild = scene.guild.id
    rows = [
        {"guild_id": guild, "alias": f"zq{n:04d} " + "ж" * 93, "entry_id": "rag"}
        for n in range(999)
    ]
    status, out, err = await import_aliases(rows, scene.db_path, tmp_path)
    print("import", status, out[-300:], err[-300:])
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="100000") as bot:
        mod = scene.moderator
        for label, alias in {
            "a100": "q" * 100,
            "a101": "q" * 101,
            "nul": "qq\x00qq",
            "surr": "qq\ud800",
            "ws": "   ",
            "emoji": "🤖",
            "sql": "'; DROP TABLE aliases;--",
            "path": "../../etc/passwd",
        }.items():
            h = await fake.slash(
                mod, "alias add", {"alias": alias, "term": "kv-cache"}, channel=scene.channel
            )
            show(label, await answer(h))
        h = await fake.slash(mod, "alias list", {}, channel=scene.channel)
        m = await answer(h)
        show("list", m)
        if isinstance(m, dict):
            print(
                "list sizes",
                len(m.get("content") or ""),
                [len(e.get("description") or "") for e in m.get("embeds") or []],
                len(m.get("attachments") or []),
            )
            print(
                "list tail",
                repr(m["embeds"][0]["description"][-300:]),
                m["embeds"][0].get("footer"),
                m.get("components"),
            )
        h = await fake.slash(mod, "alias list", {"term": "rag"}, channel=scene.channel)
        show("list rag", await answer(h))
        h = await fake.slash(mod, "alias list", {"term": "no-such-thing"}, channel=scene.channel)
        show("list unknown", await answer(h))
        h = await fake.slash(mod, "alias remove", {"alias": "never added"}, channel=scene.channel)
        show("remove missing", await answer(h))
        h = await fake.slash(
            mod, "alias remove", {"alias": ("ZQ0001 " + "Ж" * 93)}, channel=scene.channel
        )
        show("remove upper", await answer(h))
        h = await fake.autocomplete(
            mod, "alias remove", {"alias": "zq"}, focused="alias", channel=scene.channel
        )
        ch = await h.choices()
        print(
            "ac remove",
            len(ch),
            max((len(c["name"]) for c in ch), default=0),
            max((len(str(c["value"])) for c in ch), default=0),
        )
        # misses: many distinct, hostile
        for n in range(60):
            q = f"<@&{n}> @everyone zzmiss{n} " + "x" * 60 + " https://evil.example/" + str(n)
            h = await fake.slash(scene.alice, "define", {"term": q[:100]}, channel=scene.channel)
            await answer(h)
        for period in ("day", "week", "month", "all"):
            h = await fake.slash(mod, "stats", {"period": period}, channel=scene.channel)
            m = await answer(h)
            show(f"stats {period}", m)
            if isinstance(m, dict):
                for f in m["embeds"][0]["fields"]:
                    print("   field", f["name"], len(f["value"]), repr(f["value"][:400]))
        if isinstance(m, dict):
            for c in m.get("components") or []:
                for x in c.get("components") or []:
                    print(
                        "comp",
                        x.get("type"),
                        len(x.get("options") or []),
                        [o["label"] for o in (x.get("options") or [])][:3],
                    )
        h = await fake.slash(
            scene.alice, "alias add", {"alias": "x", "term": "rag"}, channel=scene.channel
        )
        print("member alias add refused by fake:", h.refused)
        print("\n".join(l for l in bot.lines if "Traceback" in l or "ERROR" in l or "rror" in l))


async def probe_terms(scene: Scene, tmp_path: Path) -> None:
    fake = scene.fake
    mod = scene.moderator
    ch = scene.channel

    async def imp(
        label: str, name: str, content: bytes | None = None, size: int | None = None, **opts: Any
    ) -> None:
        up = (
            fake.add_attachment(name, content, size=size)
            if content is not None
            else fake.add_attachment(name, size=size)
        )
        h = await fake.slash(mod, "term import", {"file": up, **opts}, channel=ch)
        m = await answer(h)
        show(label, m)

    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="100000") as bot:
        await imp("10MB", "big.toml", size=10_000_000)
        await imp("1MiB+1", "big.toml", b"#" * (1024 * 1024 + 1))
        await imp("empty", "e.toml", b"")
        await imp("binary", "b.toml", bytes(range(256)) * 10)
        await imp(
            "utf16",
            "u.toml",
            '[[entries]]\nid = "zorb"\ntitle = "Zorb"\ncategory = "Fundamentals"\ndefinition = "x y z."\n'.encode(
                "utf-16"
            ),
        )
        await imp("noentries md", "n.md", b"Title\xc2\xb6\n\nhello\n")
        await imp("json deep", "d.json", b"[" * 100000 + b"]" * 100000)
        await imp("png", "x.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 100)
        entries = "".join(
            f'[[entries]]\nid = "zt{n}"\ntitle = "Zterm {n}"\ncategory = "Fundamentals"\ndefinition = "Term number {n} of a big file."\n\n'
            for n in range(2001)
        )
        await imp("2001", "many.toml", entries.encode())
        entries = "".join(
            f'[[entries]]\nid = "zt{n}"\ntitle = "Zterm {n}"\ncategory = "Fundamentals"\ndefinition = "Term number {n} of a big file."\n\n'
            for n in range(2000)
        )
        await imp("2000 dry", "many.toml", entries.encode(), dry_run=True)
        await imp("2000", "many.toml", entries.encode())
        h = await fake.slash(mod, "term export", {}, channel=ch)
        m = await answer(h)
        show("export", m)
        if isinstance(m, dict):
            print(
                "export attachments",
                [(a.get("filename"), a.get("size")) for a in m.get("attachments") or []],
            )
        h = await fake.slash(scene.alice, "define", {"term": "zterm 1999"}, channel=ch)
        show("define zterm", await answer(h))
        h = await fake.autocomplete(
            scene.alice, "define", {"term": "zterm"}, focused="term", channel=ch
        )
        print("ac zterm", len(await h.choices()))
        # /term log pages
        h = await fake.slash(mod, "term log", {}, channel=ch)
        show("log", await answer(h))
        # form at caps
        opened = await fake.slash(
            mod, "term add", {"category": "Fundamentals", "summary": "s" * 100}, channel=ch
        )
        r = await opened.response()
        print(
            "modal",
            r["type"],
            [
                (c["components"][0].get("custom_id"), c["components"][0].get("max_length"))
                for c in r["data"]["components"]
            ]
            if r["type"] == 9
            else r,
        )
        if r["type"] == 9:
            vals = {}
            for row in r["data"]["components"]:
                comp = row["components"][0]
                vals[comp["custom_id"]] = "w" * int(comp.get("max_length") or 100)
            vals["title"] = "Zyzzy " + "a" * (len(vals.get("title", "")) - 6)
            print({k: len(v) for k, v in vals.items()})
            h = await fake.submit_modal(mod, opened, vals)
            global LIMIT
            LIMIT = 5000
            show("add at caps", await answer(h))
        print("\n".join(l for l in bot.lines if "Traceback" in l or "ERROR" in l or "rror" in l))


async def probe_explain_mention_suggest(scene: Scene, tmp_path: Path) -> None:
    fake = scene.fake
    ch = scene.channel
    from tests.discord_app.helpers import selects

    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="100000") as bot:
        many = " ".join(
            [
                "rag",
                "kv cache",
                "lora",
                "moe",
                "gpu",
                "tpu",
                "rlhf",
                "dpo",
                "sft",
                "llm",
                "bm25",
                "vllm",
                "quantization",
                "distillation",
                "tokenization",
                "embedding",
                "attention",
                "transformer",
                "hallucination",
                "fine-tuning",
                "pruning",
                "sampling",
                "temperature",
                "perplexity",
                "beam search",
                "top-p",
                "agent",
                "mcp",
                "prompt injection",
                "guardrails",
            ]
        )
        for label, text in {
            "many": many,
            "none": "hello there, nice weather",
            "emoji": "🤖🤖🤖",
            "long": ("rag " + "x" * 96 + " ") * 19,
            "hostile": "@everyone <@&1> rag ‮kv cache",
        }.items():
            msg = await fake.user_message(scene.bob, ch, text)
            h = await fake.message_command(scene.alice, "Explain terms", msg)
            m = await answer(h)
            show(f"explain {label}", m)
            if isinstance(m, dict):
                for s in selects(m):
                    print(
                        "   select", len(s["options"]), max(len(o["label"]) for o in s["options"])
                    )
        # mention
        await fake.user_message(scene.alice, ch, f"{fake.bot.mention} " + "what is rag " * 150)
        show("mention long", await fake.wait_for_channel_message(ch))
        await fake.user_message(scene.alice, ch, f"{fake.bot.mention} @everyone <@&1> zzqqxx")
        show("mention hostile", await fake.wait_for_channel_message(ch))
        # suggest
        h = await fake.slash(scene.alice, "suggest", {"term": "Zorb " + "q" * 95}, channel=ch)
        r = await h.response()
        print(
            "suggest modal",
            r["type"],
            [
                (
                    c["components"][0].get("custom_id"),
                    c["components"][0].get("max_length"),
                    c["components"][0].get("value", "")[:20],
                )
                for c in r["data"]["components"]
            ]
            if r["type"] == 9
            else r,
        )
        if r["type"] == 9:
            vals = {
                row["components"][0]["custom_id"]: (
                    "@everyone <t:0:R> https://evil.example ‮ " + "d" * 5000
                )[: row["components"][0].get("max_length") or 4000]
                for row in r["data"]["components"]
            }
            show("suggest submit", await answer(await fake.submit_modal(scene.alice, h, vals)))
            vals = {
                row["components"][0]["custom_id"]: "A fine thing that does stuff."
                for row in r["data"]["components"]
            }
            show("suggest submit2", await answer(await fake.submit_modal(scene.alice, h, vals)))
        h = await fake.slash(scene.moderator, "term review", {}, channel=ch)
        m = await answer(h)
        show("review", m)
        print("\n".join(l for l in bot.lines if "Traceback" in l or "ERROR" in l or "rror" in l))


async def probe_paths(scene: Scene, tmp_path: Path) -> None:
    fake = scene.fake
    (tmp_path / "hbdir").mkdir()
    cases = {
        "db folder": dict(DATABASE_PATH=str(tmp_path)),
        "db missing folder": dict(DATABASE_PATH=str(tmp_path / "nodir" / "x.db")),
        "hb folder": dict(HEARTBEAT_PATH=str(tmp_path / "hbdir")),
        "hb missing folder": dict(HEARTBEAT_PATH=str(tmp_path / "nodir" / "hb")),
    }
    for label, settings in cases.items():
        db = Path(settings.pop("DATABASE_PATH", str(tmp_path / f"{label}.db")))
        bot = BotProcess(fake, db, cwd=tmp_path, **settings)
        await bot.start(wait_ready=False)
        ended = asyncio.create_task(bot.exited(within=25))
        ready = asyncio.create_task(
            fake.waiter.wait_for(
                lambda: fake.gateway.ready_sent and fake.gateway.connected, "ready", within=25
            )
        )
        done, _ = await asyncio.wait({ended, ready}, return_when=asyncio.FIRST_COMPLETED)
        if ended in done:
            print(f"[{label}] exited {ended.result()}: {bot.output[-400:]}")
            ready.cancel()
        else:
            ended.cancel()
            h = await fake.slash(scene.alice, "define", {"term": "rag"}, channel=scene.channel)
            show(label + " define", await answer(h))
            h = await fake.slash(
                scene.moderator,
                "alias add",
                {"alias": "zorbix", "term": "rag"},
                channel=scene.channel,
            )
            show(label + " alias", await answer(h))
            if "HEARTBEAT_PATH" in settings:
                from tests.resilience.botproc import glossary_bot

                print(label, "health:", await glossary_bot(bot.env, tmp_path, "health"))
            await bot.stop()
            print(
                f"[{label}] log: "
                + "\n".join(l for l in bot.lines if "WARN" in l or "ERROR" in l or "rror" in l)[
                    -800:
                ]
            )


async def probe_concurrent_and_forged(scene: Scene, tmp_path: Path) -> None:
    from tests.discord_app.helpers import buttons
    from tests.fake_discord.interactions import base_payload

    fake = scene.fake
    ch = scene.channel
    mod, admin = scene.moderator, scene.admin
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="100000") as bot:
        opened = await fake.slash(mod, "term add", {"category": "Fundamentals"}, channel=ch)
        await opened.response()
        show(
            "add",
            await answer(
                await fake.submit_modal(
                    mod,
                    opened,
                    {"title": "Zorblax", "definition": "A nightly job.", "related": "RAG"},
                )
            ),
        )
        # both edit at once
        e1 = await fake.slash(mod, "term edit", {"term": "zorblax"}, channel=ch)
        e2 = await fake.slash(admin, "term edit", {"term": "zorblax"}, channel=ch)
        await e1.response()
        await e2.response()
        s1, s2 = await asyncio.gather(
            fake.submit_modal(mod, e1, {"definition": "Edit one."}),
            fake.submit_modal(admin, e2, {"definition": "Edit two."}),
        )
        show("edit1", await answer(s1))
        show("edit2", await answer(s2))
        # card with related button, then remove the term, then click
        h = await fake.slash(scene.alice, "define", {"term": "zorblax"}, channel=ch)
        card = await answer(h)
        show("card", card)
        rag_card_h = await fake.slash(scene.alice, "define", {"term": "rag"}, channel=ch)
        rag_card = await answer(rag_card_h)
        # remove zorblax: two moderators confirm at once
        r1 = await fake.slash(mod, "term remove", {"term": "zorblax"}, channel=ch)
        r2 = await fake.slash(admin, "term remove", {"term": "zorblax"}, channel=ch)
        m1, m2 = await answer(r1), await answer(r2)
        show("rm1", m1)
        show("rm2", m2)
        b1, b2 = buttons(m1), buttons(m2)
        print("buttons", b1, b2)
        c1, c2 = await asyncio.gather(
            fake.click(mod, m1, next(iter(b1.values()))),
            fake.click(admin, m2, next(iter(b2.values()))),
        )
        show("confirm1", await answer(c1))
        show("confirm2", await answer(c2))
        await answer(await fake.slash(scene.alice, "define", {"term": "kv cache"}, channel=ch))
        print(
            "callbacks",
            c1.callback and c1.callback.get("type"),
            c2.callback and c2.callback.get("type"),
            c1.followup_ids,
            c2.followup_ids,
        )
        show("confirm1 later", fake.message(int(m1["id"])))
        show("confirm2 later", fake.message(int(m2["id"])))
        for c in (c1, c2):
            try:
                async with asyncio.timeout(15):
                    show("fu", (await c.followups(1))[0])
            except TimeoutError:
                print("NO FOLLOWUP", c._state())
        for fid in c1.followup_ids + c2.followup_ids:
            show("followup", fake.message(fid))
        # click the removed term's card's buttons
        for label, cid in buttons(card).items():
            show(f"stale click {label}", await answer(await fake.click(scene.bob, card, cid)))
        # forged custom ids on a real message
        for cid in ("x" * 100, "define:zzz-nonexistent", "related:" + "a" * 90, "::::", "\u202e"):
            payload = base_payload(
                fake.world,
                kind=3,
                data={"custom_id": cid, "component_type": 2},
                user=scene.bob,
                channel=ch,
                message=rag_card,
            )
            show(
                f"forged {cid[:12]!r}",
                await answer(
                    await fake.raw_interaction(payload, target_message_id=int(rag_card["id"]))
                ),
            )
        # moderator command in a DM (raw)
        dm = fake.world.dm_channel(mod)
        h = await fake.slash(mod, "define", {"term": "rag", "private": True}, channel=dm)
        show("dm define private", await answer(h))
        try:
            h = await fake.slash(mod, "alias list", {}, channel=dm)
            print("dm alias list refused by fake:", h.refused)
        except Exception as e:
            print("dm alias list", e)
        h = await fake.slash(mod, "glossary about", {}, channel=dm)
        show("dm about", await answer(h))
        print("\n".join(l for l in bot.lines if "Traceback" in l or "ERROR" in l or "rror" in l))


async def probe_disk_full(scene: Scene, tmp_path: Path) -> None:
    fake = scene.fake
    ch = scene.channel
    mod = scene.moderator
    async with BotProcess(
        fake,
        scene.db_path,
        cwd=tmp_path,
        prefix=["prlimit", "--fsize=400000"],
        COOLDOWN_USES="100000",
        GLOSSARY_CACHE_DIR=str(tmp_path / "cache"),
    ) as bot:
        entries = "".join(
            f'[[entries]]\nid = "zt{n}"\ntitle = "Zterm {n}"\ncategory = "Fundamentals"\ndefinition = "Term number {n} of a big file, with some more words to take room in the database {"w" * 200}."\n\n'
            for n in range(1500)
        )
        up = fake.add_attachment("many.toml", entries)
        h = await fake.slash(mod, "term import", {"file": up}, channel=ch)
        show("import", await answer(h))
        print("db size", scene.db_path.stat().st_size)
        h = await fake.slash(mod, "term export", {}, channel=ch)
        show("export", await answer(h))
        for n in range(30):
            h = await fake.slash(
                mod, "alias add", {"alias": f"zorbozz{n} " + "q" * 80, "term": "rag"}, channel=ch
            )
            m = await answer(h)
        show("alias", m)
        h = await fake.slash(scene.alice, "define", {"term": "zterm 3"}, channel=ch)
        show("define", await answer(h))
        h = await fake.slash(mod, "stats", {}, channel=ch)
        show("stats", await answer(h))
        print("\n".join(bot.lines)[-3000:])
    from tests.resilience.helpers import integrity
    from tests.storage.conftest import query

    print(
        "integrity", integrity(scene.db_path), query(scene.db_path, "select count(*) from aliases")
    )


async def probe_batch2(scene: Scene, tmp_path: Path) -> None:
    from tests.discord_app.helpers import buttons, selects

    fake = scene.fake
    ch = scene.channel
    mod, admin = scene.moderator, scene.admin
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="100000") as bot:
        # a term related to 30 terms with long titles
        titles = [f"Zlong{n:02d} " + "Q" * 200 for n in range(30)]
        toml = "".join(
            f'[[entries]]\nid = "zlong{n:02d}"\ntitle = "{t}"\ncategory = "Fundamentals"\ndefinition = "Long {n}."\n\n'
            for n, t in enumerate(titles)
        )
        toml += (
            '[[entries]]\nid = "zhub"\ntitle = "Zhub"\ncategory = "Fundamentals"\ndefinition = "The hub."\nrelated = ['
            + ", ".join(f'"zlong{n:02d}"' for n in range(30))
            + "]\n"
        )
        up = fake.add_attachment("t.toml", toml)
        show("import", await answer(await fake.slash(mod, "term import", {"file": up}, channel=ch)))
        h = await fake.slash(scene.alice, "define", {"term": "zhub"}, channel=ch)
        card = await answer(h)
        show("hub", card)
        if isinstance(card, dict):
            print(
                "buttons",
                len(buttons(card)),
                [len(k) for k in buttons(card)][:3],
                [len(s["options"]) for s in selects(card)],
            )
            for s in selects(card):
                opt = s["options"][-1]["value"]
                show(
                    "pick from menu",
                    await answer(await fake.select(scene.bob, card, s["custom_id"], [opt])),
                )
        # whitespace and empty misses, then stats
        for q in ("   ", "\u200b", "zzqqmiss"):
            await answer(await fake.slash(scene.alice, "define", {"term": q}, channel=ch))
        for n in range(30):
            await answer(
                await fake.slash(scene.alice, "define", {"term": f"flibber{n:02d}"}, channel=ch)
            )
        h = await fake.slash(mod, "stats", {}, channel=ch)
        st = await answer(h)
        show("stats", st)
        if isinstance(st, dict):
            for f in st["embeds"][0]["fields"]:
                print("   field", f["name"], repr(f["value"][:300]))
            for s in selects(st):
                print("   menu", len(s["options"]), [o["label"] for o in s["options"]][:5])
        # edit a term removed meanwhile
        e1 = await fake.slash(mod, "term edit", {"term": "zlong00"}, channel=ch)
        await e1.response()
        r = await answer(await fake.slash(admin, "term remove", {"term": "zlong01"}, channel=ch))
        show("remove zlong01 (related from zhub)", r)
        r = await answer(await fake.slash(admin, "term remove", {"term": "zhub"}, channel=ch))
        c = await fake.click(admin, r, next(iter(buttons(r).values())))
        show("rm hub", (await c.followups(1))[0])
        r = await answer(await fake.slash(admin, "term remove", {"term": "zlong00"}, channel=ch))
        c = await fake.click(admin, r, next(iter(buttons(r).values())))
        show("rm zlong00", (await c.followups(1))[0])
        show(
            "edit of removed",
            await answer(await fake.submit_modal(mod, e1, {"definition": "Changed."})),
        )
        # the stale hub card's buttons
        if isinstance(card, dict):
            for label, cid in list(buttons(card).items())[:2]:
                show("stale hub button", await answer(await fake.click(scene.bob, card, cid)))
        # suggestion accepted twice
        h = await fake.slash(scene.bob, "suggest", {"term": "Wibblefrotz"}, channel=ch)
        await h.response()
        show(
            "suggest",
            await answer(
                await fake.submit_modal(
                    scene.bob, h, {"title": "Wibblefrotz", "definition": "A made-up thing we use."}
                )
            ),
        )
        v1 = await answer(
            await fake.slash(mod, "term review", {"category": "Fundamentals"}, channel=ch)
        )
        v2 = await answer(
            await fake.slash(admin, "term review", {"category": "Fundamentals"}, channel=ch)
        )
        b1, b2 = buttons(v1), buttons(v2)
        print("review buttons", b1.keys())
        rej = await fake.click(admin, v2, b2["Reject"])
        show("reject", await answer(rej))
        acc = await fake.click(mod, v1, next(v for k, v in b1.items() if k.startswith("Accept")))
        rr = await acc.response()
        print("accept after reject ->", rr.get("type"), str(rr.get("data"))[:300])
        if rr.get("type") == 9:
            show("accept submit", await answer(await fake.submit_modal(mod, acc, {})))
        # explain terms on an embed-only message (the bot's own card)
        rag = await answer(await fake.slash(scene.alice, "define", {"term": "rag"}, channel=ch))
        show(
            "explain bot card",
            await answer(await fake.message_command(scene.alice, "Explain terms", rag)),
        )
        print("\n".join(x for x in bot.lines if "Traceback" in x or "ERROR" in x or "rror" in x))


async def probe_cap_race(scene: Scene, tmp_path: Path) -> None:
    from tests.resilience.botproc import import_aliases
    from tests.storage.conftest import query

    fake = scene.fake
    ch = scene.channel
    rows = [
        {"guild_id": scene.guild.id, "alias": f"zq{n:04d}", "entry_id": "rag"} for n in range(998)
    ]
    print(await import_aliases(rows, scene.db_path, tmp_path))
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="100000") as bot:
        hs = await asyncio.gather(
            *[
                fake.slash(u, "alias add", {"alias": f"wobble{n}", "term": "kv-cache"}, channel=ch)
                for n, u in enumerate([scene.moderator, scene.admin, scene.owner, scene.moderator])
            ]
        )
        for h in hs:
            show("add", await answer(h))
        print("count", query(scene.db_path, "select count(*) from aliases"))
        # CLI import at the cap while a moderator adds
        more = [
            {"guild_id": scene.guild.id, "alias": f"zzimp{n}", "entry_id": "rag"} for n in range(5)
        ]
        res = await asyncio.gather(
            import_aliases(more, scene.db_path, tmp_path),
            fake.slash(
                scene.moderator, "alias add", {"alias": "wobblex", "term": "kv-cache"}, channel=ch
            ),
        )
        print(res[0])
        show("add during import", await answer(res[1]))
        print("count", query(scene.db_path, "select count(*) from aliases"))
        fake.settle_before_actions = False  # the harness settles through gateway sends (110/min)
        # flood of autocompletes
        t0 = asyncio.get_running_loop().time()
        acs = await asyncio.gather(
            *[
                fake.autocomplete(
                    scene.alice, "define", {"term": "k" * (n % 90 + 1)}, focused="term", channel=ch
                )
                for n in range(200)
            ]
        )
        ok = 0
        for a in acs:
            try:
                async with asyncio.timeout(20):
                    await a.choices()
                ok += 1
            except Exception as e:  # noqa: BLE001
                print("ac fail", e)
        print(
            "autocomplete answered",
            ok,
            "of 200",
            "latency max",
            max((a.response_latency or 0) for a in acs),
        )
        print("\n".join(x for x in bot.lines if "Traceback" in x or "ERROR" in x or "WARN" in x))


async def probe_two_bots_one_file(scene: Scene, tmp_path: Path) -> None:
    fake = scene.fake
    ch = scene.channel
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    async with BotProcess(fake, scene.db_path, cwd=tmp_path / "a", COOLDOWN_USES="100000") as one:
        two = BotProcess(fake, scene.db_path, cwd=tmp_path / "b", COOLDOWN_USES="100000")
        await two.start(wait_ready=False)
        ended = asyncio.create_task(two.exited(within=20))
        try:
            code = await ended
            print("second exited", code, two.output[-600:])
        except AssertionError as e:
            print("second still running after 20 s:\n" + "\n".join(two.lines[:30]))
        for n in range(3):
            h = await fake.slash(scene.alice, "define", {"term": "rag"}, channel=ch)
            show("define", await answer(h))
        h = await fake.slash(
            scene.moderator, "alias add", {"alias": "zorbel", "term": "rag"}, channel=ch
        )
        show("alias", await answer(h))
        print("one:", "\n".join(x for x in one.lines if "ERROR" in x or "WARN" in x))
        if two.process.returncode is None:
            await two.stop()
        print("two:", "\n".join(x for x in two.lines if "ERROR" in x or "WARN" in x))


async def probe_batch3(scene: Scene, tmp_path: Path) -> None:
    from tests.discord_app.helpers import buttons, selects
    from tests.fake_discord.interactions import base_payload

    fake = scene.fake
    ch = scene.channel
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="100000") as bot:
        # misses close to terms, some hostile
        for q in [
            "kv cahce thing",
            "@everyone ragg",
            "retreival augmented",
            "<@&1> lorra",
            "quantizaton!!",
            "\u202etokenzation",
        ] + [f"speculatve decodng {n}" for n in range(30)]:
            await answer(await fake.slash(scene.alice, "define", {"term": q}, channel=ch))
        st = await answer(await fake.slash(scene.moderator, "stats", {}, channel=ch))
        show("stats", st)
        if isinstance(st, dict):
            for s in selects(st):
                print(
                    "   menu",
                    len(s["options"]),
                    [(o["label"], o.get("description")) for o in s["options"]][:8],
                )
                pick = s["options"][0]["value"]
                h = await fake.select(scene.moderator, st, s["custom_id"], [pick])
                show("pick miss", await answer(h))
                h2 = await fake.select(scene.alice, st, s["custom_id"], [pick])
                show("member picks miss (ephemeral msg, forged)", await answer(h2))
        # modal submitted by another user
        opened = await fake.slash(
            scene.moderator, "term add", {"category": "Fundamentals"}, channel=ch
        )
        await opened.response()
        show(
            "modal by alice",
            await answer(
                await fake.submit_modal(
                    scene.alice, opened, {"title": "Snorkwax", "definition": "Stolen form."}
                )
            ),
        )
        # interaction from a guild the bot is not in
        ghost = fake.add_guild("Ghost")
        gch = ghost.add_text_channel("g")
        ghost.add_member(scene.alice)
        try:
            show(
                "ghost define",
                await answer(await fake.slash(scene.alice, "define", {"term": "rag"}, channel=gch)),
            )
        except Exception as e:  # noqa: BLE001
            print("ghost", e)
        print("\n".join(x for x in bot.lines if "Traceback" in x or "ERROR" in x or "WARN" in x))


async def probe_readonly(scene: Scene, tmp_path: Path) -> None:
    import os as _os

    from tests.resilience.conftest import without_permission_override

    fake = scene.fake
    ch = scene.channel
    async with BotProcess(
        fake,
        scene.db_path,
        cwd=tmp_path,
        prefix=without_permission_override(),
        COOLDOWN_USES="100000",
    ) as bot:
        show(
            "add before",
            await answer(
                await fake.slash(
                    scene.moderator, "alias add", {"alias": "zorbel", "term": "rag"}, channel=ch
                )
            ),
        )
        _os.chmod(scene.db_path, 0o444)
        show(
            "add ro",
            await answer(
                await fake.slash(
                    scene.moderator, "alias add", {"alias": "zorbel2", "term": "rag"}, channel=ch
                )
            ),
        )
        show(
            "define ro",
            await answer(await fake.slash(scene.alice, "define", {"term": "zorbel"}, channel=ch)),
        )
        show(
            "remove ro",
            await answer(
                await fake.slash(scene.moderator, "alias remove", {"alias": "zorbel"}, channel=ch)
            ),
        )
        up = fake.add_attachment(
            "t.toml",
            '[[entries]]\nid = "zz"\ntitle = "Zz"\ncategory = "Fundamentals"\ndefinition = "A zz."\n',
        )
        show(
            "import ro",
            await answer(
                await fake.slash(scene.moderator, "term import", {"file": up}, channel=ch)
            ),
        )
        h = await fake.slash(scene.bob, "suggest", {"term": "Wibble"}, channel=ch)
        await h.response()
        show(
            "suggest ro",
            await answer(
                await fake.submit_modal(
                    scene.bob, h, {"title": "Wibble", "definition": "A thing we use daily."}
                )
            ),
        )
        _os.chmod(scene.db_path, 0o644)
        show(
            "add rw",
            await answer(
                await fake.slash(
                    scene.moderator, "alias add", {"alias": "zorbel3", "term": "rag"}, channel=ch
                )
            ),
        )
        print(
            "\n".join(
                x
                for x in bot.lines
                if "Traceback" in x or "ERROR" in x or "WARN" in x or "again" in x
            )
        )


async def probe_log_caps(scene: Scene, tmp_path: Path) -> None:
    from tests.discord_app.helpers import buttons

    fake = scene.fake
    ch = scene.channel
    mod = scene.moderator
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="100000") as bot:
        show("review empty", await answer(await fake.slash(mod, "term review", {}, channel=ch)))
        opened = await fake.slash(
            mod,
            "term add",
            {"category": "Fundamentals", "summary": "S" * 100, "acronym": "ZQ"},
            channel=ch,
        )
        await opened.response()
        show(
            "add",
            await answer(
                await fake.submit_modal(
                    mod,
                    opened,
                    {
                        "title": "Zorblax " + "T" * 240,
                        "definition": "Alpha words here. " * 220,
                        "boundary": "B" * 1000,
                        "other_names": ", ".join(f"zalias{n} " + "n" * 80 for n in range(10)),
                    },
                )
            ),
        )
        for n in range(3):
            e = await fake.slash(mod, "term edit", {"term": "zorblax-" + "t" * 240}, channel=ch)
            r = await e.response()
            if r["type"] != 9:
                print("edit open", r)
                # try with the autocomplete value
                ac = await fake.autocomplete(
                    mod, "term edit", {"term": "zorblax"}, focused="term", channel=ch
                )
                ch_ = await ac.choices()
                print("ac", [(c["name"][:30], c["value"][:40]) for c in ch_])
                e = await fake.slash(mod, "term edit", {"term": ch_[0]["value"]}, channel=ch)
                r = await e.response()
            show(
                "edit",
                await answer(
                    await fake.submit_modal(
                        mod, e, {"definition": f"Beta{n} words. " * 260, "boundary": f"C{n}" * 500}
                    )
                ),
            )
        lg = await answer(await fake.slash(mod, "term log", {}, channel=ch))
        show("log", lg)
        if isinstance(lg, dict):
            print("log sizes", len(lg["embeds"][0].get("description", "")), buttons(lg).keys())
        print("\n".join(x for x in bot.lines if "Traceback" in x or "ERROR" in x or "WARN" in x))
