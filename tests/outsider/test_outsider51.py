"""outsider51: outsider round 34 (PLAN.md, "Outsider round 34 (outsider51)"). A self-hoster
and a moderator who have never seen the code, driving what the README promises."""

from __future__ import annotations

import itertools
import logging
import string
from pathlib import Path

from bot.discord_app.app import GlossaryBot
from bot.glossary import load_glossary
from bot.glossary.interchange import export_bytes, import_cap, parse_import
from bot.glossary.server_terms import ServerTerm, check_caps, text_size
from bot.search.semantic.term_vectors import TermVectors
from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons, define, embed_of
from tests.discord_app.term_commands import TERM, open_add, run_import, submit
from tests.discord_app.test_aliases import add as add_alias
from tests.resilience.helpers import warned

from .conftest import Scene
from .test_outsider49 import reject_next, suggested

# Two-character items, each its own: the most items a list holds for its bytes (a 1-character
# one is one of a few dozen, quotes and backslashes aside).
PAIRS = ["".join(p) for p in itertools.product(string.ascii_lowercase + string.digits, repeat=2)]


def _filled(max_terms: int, max_text: int, field: str, items: int) -> list[ServerTerm]:
    """As many terms as the caps let in (as `check_caps` counts them), each with `items`
    two-character items in `field`: the set of terms whose export is the largest for its text."""
    terms: list[ServerTerm] = []
    size = 0
    for n in range(max_terms):
        values = tuple(PAIRS[n % 7 : n % 7 + items])
        term = ServerTerm(
            id=f"zq{n:04d}",
            title=f"Zq {n:04d}",
            definition="Zq.",
            category="Fundamentals",
            **{field: values},
        )
        size += text_size(term)
        if size > max_text:
            break
        terms.append(term)
    assert check_caps(terms, max_terms=max_terms, max_text_bytes=max_text) == []
    return terms


def test_a_server_at_its_text_cap_exports_a_file_its_import_takes() -> None:
    """P1: `/term export` of a server at its caps imports back (README: the import cap is "room
    for the export of a server at its caps"). The cap counted a list's names alone, and an
    export writes two quotes and ", " for each: a file of 2-letter keywords that the import took
    (5.17 MB at the default caps, its 2.08 MB of text under 2 MiB) exported to 6.2 MB, which
    the same import refused. A list is now counted as the form lists it."""
    max_terms, max_text = 400, 512 * 1024  # the text cap binds, as at the defaults; quicker
    cap = import_cap(max_terms, max_text)
    for field in ("keywords", "aliases", "related"):
        terms = _filled(max_terms, max_text, field, items=1200)
        assert 100 < len(terms) < max_terms, (field, len(terms))  # the text cap binds
        exported = export_bytes(terms)
        assert len(exported) <= cap, (field, len(exported), cap)
    # The last (related ids naming no term here) is no file an import takes; keywords are.
    terms = _filled(max_terms, max_text, "keywords", items=1200)
    again, problems = parse_import(
        export_bytes(terms), "terms.toml", load_glossary(), max_terms=max_terms, max_bytes=cap
    )
    assert [str(p) for p in problems if p.severity == "error"] == []
    assert again == terms
    assert check_caps(again, max_terms=max_terms, max_text_bytes=max_text) == []


def test_the_import_option_names_no_cap_the_bot_does_not_apply() -> None:
    """Discord shows `/term import`'s file option with its description: it said "at most 1
    MiB", the least the cap can be, where a server at the default caps may import 4.98 MiB
    (README), the size of its own export. A cap depends on the settings: the box names none."""
    from bot.discord_app.cogs.terms import TermCog

    option = TermCog.import_.get_parameter("file")
    assert option is not None
    assert "MiB" not in option.description, option.description
    assert import_cap() > 4 * 2**20  # what the description understated


async def test_a_moderators_day_with_a_restart_in_the_middle(
    scene: Scene, start_bot: StartBot
) -> None:
    """P5: lookups and a miss in the morning, a term written in the form, an alias, two
    members' suggestions, an Accept… form open across a restart and saved after it, the other
    rejected; then `/stats` (with its chart), `/alias list` and `/term log` after the restart
    tell the whole day: lookups before the restart counted, nothing lost."""
    fake = scene.fake
    async with start_bot(await Store.open(scene.db_path)):
        for user, term in (
            (scene.alice, "kv cache"),
            (scene.bob, "kv cache"),
            (scene.alice, "rag"),
        ):
            await define(fake, user, term, scene.channel)
        _, missed = await define(fake, scene.bob, "qxvorp", scene.channel)
        assert str(missed["content"]).startswith("No entry for “qxvorp”."), missed
        opened = await open_add(scene, scene.moderator, category="Fundamentals")
        said = await submit(scene, scene.moderator, opened, {**TERM, "other_names": "zbx"})
        assert said["content"].startswith("Added **Zorblax**"), said
        assert "now opens" in await add_alias(scene, scene.moderator, "batch rerank", "zorblax")
        await suggested(scene, scene.alice, "Qxkalo")
        await suggested(scene, scene.bob, "Qxlomi")
        review = await fake.slash(
            scene.moderator, "term review", {"category": "Fundamentals"}, channel=scene.channel
        )
        shown = await review.final_message()
        accepting = await fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
        assert (await accepting.response())["type"] == 9
    store = await Store.open(scene.db_path)
    async with start_bot(store):
        saved = await fake.submit_modal(scene.moderator, accepting, {})
        assert (await saved.final_message())["content"].startswith("Added **Qxkalo**")
        assert "Rejected the suggestion; the member was told privately." in await reject_next(scene)
        for user, term, title in (
            (scene.alice, "qxkalo", "Qxkalo"),
            (scene.bob, "zbx", "Zorblax"),
            (scene.alice, "batch rerank", "Zorblax"),
        ):
            _, card = await define(fake, user, term, scene.channel)
            assert embed_of(card)["title"] == title, card
        stats = await (
            await fake.slash(scene.moderator, "stats", channel=scene.channel)
        ).final_message()
        shown_stats = embed_of(stats)
        assert shown_stats["description"] == "**6** lookups", shown_stats
        top = {f["name"]: f["value"] for f in shown_stats["fields"]}
        assert top["Most looked up"].splitlines() == [
            "1. KV Cache: 2",
            "2. Zorblax: 2",
            "3. Qxkalo: 1",
            "4. Retrieval-Augmented Generation (RAG): 1",
        ], top
        assert top["Searches that found nothing"] == "“qxvorp”: 1×", top
        assert [a["filename"] for a in stats["attachments"]] == ["lookups.png"]
        listed = await (
            await fake.slash(scene.moderator, "alias list", {}, channel=scene.channel)
        ).final_message()
        assert "batch rerank" in str(listed), listed
        log = await (
            await fake.slash(scene.moderator, "term log", {}, channel=scene.channel)
        ).final_message()
        lines = [line for line in embed_of(log)["description"].splitlines() if line]
        assert [line.split("> ", 1)[1].split(" “")[0] for line in lines] == [
            f"<@{scene.moderator.id}> rejected the suggestion",
            f"<@{scene.moderator.id}> accepted the suggestion",
            f"<@{scene.moderator.id}> added",
            f"<@{scene.moderator.id}> added",
        ], lines


THREE_TERMS = b"""
[[entries]]
title = "Qxbatch Ledger"
category = "Fundamentals"
definition = "The nightly ledger of every batch job the team ran, kept for audits."

[[entries]]
title = "Qxrota Board"
category = "Fundamentals"
definition = "The shared board that says who is on call for the inference cluster each week."

[[entries]]
title = "Qxdock Gate"
category = "Fundamentals"
definition = "The check a model passes before it is shipped to the serving fleet."
"""


async def test_a_server_with_more_texts_than_the_vector_cache_keeps_is_embedded_once(
    scene: Scene, bot: GlossaryBot, tmp_path: Path
) -> None:
    """P4: the term-vector cache keeps the newest 50,000 texts of every server together
    (`TermVectors.kept`); a server's meaning stage was built from the cache alone. A server
    with more texts than it keeps (an operator's `MAX_SERVER_TERMS` past 25,000, or a dozen
    full servers embedding at once after a restart without the cache file) saw each batch
    evict its own earlier texts, embedded them again, and so on for ever: the one embedding
    thread every server waits for never came free. Here the cache keeps 4 of the 6 texts
    (two a term): the server's stage keeps what it took, and is complete after its texts are
    embedded once each, or twice at worst, not in a loop."""
    shared = bot.state.servers._vectors()
    assert shared is not None
    # A cache of its own (the tests' default folder is shared by every run), keeping 4.
    bot.state.servers._term_vectors = TermVectors(shared.encoder, tmp_path, kept=4)
    async with warned(f"of server {scene.guild.id}'s terms in", level=logging.INFO) as records:
        said = await run_import(scene, scene.fake.add_attachment("ours.toml", THREE_TERMS))
        assert said.startswith("Imported: 3 added"), said
    [line] = [r.getMessage() for r in records if "texts of server" in r.getMessage()]
    embedded = int(line.split()[1])
    assert 6 <= embedded <= 12, line  # each text once, twice at worst (before: hundreds)
    local = await bot.state.servers.local(scene.guild.id)
    assert local.complete
    _, card = await define(
        scene.fake, scene.alice, "who is on call for the inference cluster this week", scene.channel
    )
    assert embed_of(card)["title"] == "Qxrota Board", card
