"""Outside testing round 26: the moderator's life cycle with hostile content, at the caps, across
a restart (tests/outsider/PLAN.md, round 26).

Through the real bot (discord.py) against the fake Discord, on real SQLite files."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.discord_app.app import GlossaryBot
from bot.glossary.server_terms import ServerTerm
from bot.storage import AddAliasResult, Migrate, Store
from bot.storage.cli import on_store
from bot.term_storage import TermChange, change_terms, read_terms
from tests.discord_app.helpers import define, embed_of, fields, is_ephemeral
from tests.discord_app.term_commands import TERM, add_term, open_add, run_import, submit

from .conftest import Scene

PRIVATE_LINK = "https://docs.google.com/document/d/1aBcD_eFgHiJkLmNoPqRsTuVwXyZ/edit?usp=sharing"


def _buttons(message: dict[str, object]) -> list[str]:
    rows = message.get("components") or []
    assert isinstance(rows, list)
    return [str(item.get("label")) for row in rows for item in row.get("components", [])]


async def _missed(scene: Scene) -> str:
    shown = await scene.fake.slash(scene.moderator, "stats", {}, channel=scene.channel)
    [embed] = (await shown.final_message())["embeds"]
    [missed] = [f["value"] for f in embed["fields"] if f["name"] == "Searches that found nothing"]
    return str(missed)


async def test_a_link_looked_up_is_no_missed_search(scene: Scene, bot: GlossaryBot) -> None:
    """Plan line L18 (beside it): a link pasted into `/define`, or alone after a mention of the
    bot, was answered "No entry for “https[:]//docs[.]google…”. Try another spelling, or ask a
    moderator to add it as an alias" (an alias may not hold a link), with a Suggest it button
    (a suggestion may not be named by one either), and stored as a missed search: `/stats`
    listed "https docs google com document d 1abcd… usp=sharing" to the moderators, a private
    document's address among the words members miss, and the alias box offered it. A link is
    not a term: now it is said so, privately, and nothing is stored."""
    fake = scene.fake
    for link in (PRIVATE_LINK, "https://discord.gg/abcdef", "<https://example.com/x>"):
        _, answer = await define(fake, scene.alice, link, scene.channel)
        assert is_ephemeral(answer), answer
        assert answer["content"].startswith("That is a link: I look up terms"), answer
        assert "alias" not in answer["content"], answer
        assert _buttons(answer) == [], answer  # no Suggest it: a term's name may hold no link
    await fake.user_message(scene.bob, scene.channel, f"{fake.bot.mention} {PRIVATE_LINK}")
    said = await fake.wait_for_channel_message(scene.channel)
    assert said["content"].startswith("That is a link: I look up terms"), said
    assert "docs" not in said["content"], said  # nor is the link repeated in public
    assert await _missed(scene) == "None. 🎉"
    # Words beside a link are still looked up, and a real miss still counts.
    _, answer = await define(fake, scene.alice, f"qqblorp {PRIVATE_LINK}", scene.channel)
    assert answer["content"].startswith("No entry for “qqblorp https[:]//docs"), answer
    assert "qqblorp" in await _missed(scene)


async def test_term_add_at_the_cap_says_so_before_the_form_opens(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan lines L10, L11: a server at its term cap (`MAX_SERVER_TERMS`): `/term add`, and a
    suggestion's **Accept…**, opened the form; the moderator wrote the term (a definition of up
    to 4,000 characters), and only the save said "a server can have at most 1 terms (2)".
    `/suggest` says a full queue before its form opens (README), and `/alias add` its cap at
    once. Now both say the cap before the form; the suggestion stays open. The save still checks
    (another process may add a term while the form is open)."""
    fake, mod = scene.fake, scene.moderator
    bot.state.term_caps = (1, 2**21)
    assert (await add_term(scene))["content"].startswith("Added **Zorblax**")
    opened = await fake.slash(mod, "term add", {"category": "Fundamentals"}, channel=scene.channel)
    answer = await opened.final_message()
    assert is_ephemeral(answer), answer
    assert answer["content"] == (
        "This server has reached its limit of 1 term: nothing can be added. "
        "Remove one with `/term remove` first."
    ), answer

    asked = await fake.slash(scene.alice, "suggest", {"term": "Quux Thing"}, channel=scene.channel)
    assert (await asked.response())["type"] == 9
    sent = await fake.submit_modal(scene.alice, asked, {"definition": "A thing of the raid."})
    assert (await sent.final_message())["content"].startswith("Thanks!")
    review = await fake.slash(
        mod, "term review", {"category": "Fundamentals"}, channel=scene.channel
    )
    shown = await review.final_message()
    [accept] = [
        item["custom_id"]
        for row in shown["components"]
        for item in row["components"]
        if item["label"] == "Accept…"
    ]
    pressed = await fake.click(mod, shown, accept)
    answer = await pressed.final_message()
    assert is_ephemeral(answer), answer
    assert answer["content"].startswith("This server has reached its limit of 1 term"), answer
    assert answer["content"].endswith("The suggestion stays open."), answer
    assert [s.title for s in await store.open_suggestions(scene.guild.id)] == ["Quux Thing"]
    assert [t.title for t in await read_terms(store, scene.guild.id)] == [TERM["title"]]

    # Below the cap the form opens as before; so it does for an edit at the cap.
    edited = await fake.slash(mod, "term edit", {"term": "zorblax"}, channel=scene.channel)
    assert (await edited.response())["type"] == 9
    bot.state.term_caps = (2, 2**21)
    opened = await fake.slash(mod, "term add", {"category": "Fundamentals"}, channel=scene.channel)
    assert (await opened.response())["type"] == 9


async def test_term_import_of_the_bots_other_json_files_says_what_they_are(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line L4: the JSON files the bot's own command line writes, given to `/term import`:
    `glossary-bot aliases export` was "expected the topics JSON: one object {…}, not a list";
    `glossary-bot export` (the whole glossary, `{"sources": [...], "entries": [...]}`) five
    problems, "schemaVersion: missing required field" and the like, then "entries: unknown
    key". Now each is named, with what to use instead; nothing is written."""
    fake = scene.fake
    aliases = [  # a row as `glossary-bot aliases export` writes it
        {
            "guild_id": scene.guild.id,
            "alias": "zw",
            "key": "zw",
            "entry_id": "rag",
            "added_by": 0,
            "added_at": "2026-12-04T21:14:08+00:00",
        }
    ]
    answer = await run_import(scene, fake.add_attachment("aliases.json", json.dumps(aliases)))
    assert answer == (
        "Nothing was imported: 1 problem in the file.\n• File: this is a file of aliases "
        "(as `glossary-bot aliases export` writes them), not a glossary: add aliases with "
        "`/alias add`, or the operator with `glossary-bot aliases import`."
    ), answer
    exported = {"sources": [{"id": "x"}], "entries": [{"id": "rag", "title": "RAG"}]}
    answer = await run_import(scene, fake.add_attachment("glossary.json", json.dumps(exported)))
    assert answer == (
        "Nothing was imported: 1 problem in the file.\n• File: this is a whole glossary as "
        "`glossary-bot export` writes it, not a server's terms: import the curated TOML that "
        "`/term export` (or `glossary-bot terms export`) writes, the topics JSON or the "
        "Markdown glossary."
    ), answer
    assert await read_terms(store, scene.guild.id) == []


async def test_an_alias_of_a_term_removed_as_it_is_added_is_not_left_behind(
    scene: Scene, bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found beside plan line L12: one moderator confirms `/term remove` of Quux while another
    runs `/alias add qx` for it. The alias was checked while Quux stood, the removal's write
    (which takes a term's aliases with it) found no `qx` yet, and then `qx` was written: an
    alias of a term that is gone ("qx → quux (no longer in the glossary)"), which the README
    says goes with its term. Now the alias's write refuses a term no longer stored then, and
    says so. The removal lands here, deterministically, between the alias's check and its
    write, through another connection to the database (as another moderator's would)."""
    fake = scene.fake
    quux = '[[entries]]\nid = "quux"\ntitle = "Quux"\ncategory = "Fundamentals"\ndefinition = "A raid thing."\n'
    assert (await run_import(scene, fake.add_attachment("q.toml", quux))).startswith("Imported")
    write = bot.state.store.add_alias

    async def removed_first(*args: Any, **kwargs: Any) -> AddAliasResult:
        def plan(terms: list[ServerTerm], aliases: Mapping[str, str]) -> tuple[TermChange, str]:
            return TermChange(remove=("quux",)), "removed"

        assert await change_terms(store, scene.guild.id, plan, scene.admin.id) == "removed"
        return await write(*args, **kwargs)

    monkeypatch.setattr(bot.state.store, "add_alias", removed_first)
    added = await fake.slash(
        scene.moderator, "alias add", {"alias": "qx", "term": "quux"}, channel=scene.channel
    )
    answer = (await added.final_message())["content"]
    assert answer == (
        "“Quux” was removed from this server's glossary a moment ago: nothing was added."
    ), answer
    assert await store.aliases(scene.guild.id) == {}
    _, said = await define(fake, scene.alice, "qx", scene.channel)
    assert said["content"].startswith("No entry for “qx”. Try another spelling"), said


SPOILED = "Zorb ||Hidden|| ~~Struck~~"
SPOILED_SHOWN = r"Zorb \|\|Hidden\|\| \~\~Struck\~\~"  # as Discord shows it: as typed


async def test_a_name_with_markdown_shows_as_typed_in_lists(scene: Scene, bot: GlossaryBot) -> None:
    """Found beside plan line L1: a server term's title may hold Markdown (`||`, `~~`, `*`, `#`:
    names such as "A* Search" need them), and `/term add`'s answer, `/term log` and `/term
    remove` showed it as typed, but `/stats`' top terms ("1. Zorb ||Hidden|| ~~Struck~~: 1":
    a spoiler and a strike-through), `/alias add`'s and `/alias list`'s answers, Explain terms'
    list and a card's Related field rendered it: "Hidden" under a spoiler, "Struck" struck out.
    Now a name in such text is escaped: shown as typed."""
    fake, mod = scene.fake, scene.moderator
    opened = await open_add(scene, mod, category="Fundamentals")
    values = {"title": SPOILED, "definition": "A zorb of the raid, with odd marks in its name."}
    assert (await submit(scene, mod, opened, values))["content"].startswith("Added")
    opened = await open_add(scene, mod, category="Fundamentals")
    values = {"title": "Blap", "definition": "A blap of the raid.", "related": SPOILED}
    assert (await submit(scene, mod, opened, values))["content"].startswith("Added")

    _, card = await define(fake, scene.alice, "blap", scene.channel)
    assert fields(card)["Related"] == SPOILED_SHOWN
    added = await fake.slash(
        mod, "alias add", {"alias": "zz", "term": SPOILED}, channel=scene.channel
    )
    answer = (await added.final_message())["content"]
    assert answer == f"Added: “zz” now opens **{SPOILED_SHOWN}** in this server.", answer
    listed = await fake.slash(mod, "alias list", {}, channel=scene.channel)
    assert f"“zz” → {SPOILED_SHOWN} (by" in embed_of(await listed.final_message())["description"]
    said = await fake.user_message(
        scene.bob, scene.channel, "the zorb hidden struck broke the blap"
    )
    explained = await fake.message_command(scene.alice, "Explain terms", said)
    listing = embed_of(await explained.final_message())["description"]
    assert f"**{SPOILED_SHOWN}**: A zorb of the raid" in listing, listing
    _, card = await define(fake, scene.alice, "zz", scene.channel)
    shown = await fake.slash(mod, "stats", {}, channel=scene.channel)
    top = fields(await shown.final_message())["Most looked up"]
    assert f"{SPOILED_SHOWN}: 1" in top, top


def test_aliases_import_of_a_term_removed_before_its_write_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same race from the command line: `glossary-bot aliases import` checks each line
    against the server's terms as it read them; the bot removed the term before the import's
    write. The alias was written for a term that is gone; now that line is refused, naming the
    term. The removal moved the server's terms, as any term the bot writes meanwhile, which the
    lines were checked without (mend71): they are checked and written again, once (product72)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GLOSSARY_PATHS", "")
    db = tmp_path / "g.db"
    quux = ServerTerm(id="quux", title="Quux", definition="A raid thing.", category="Fundamentals")

    def put(terms: list[ServerTerm], aliases: Mapping[str, str]) -> tuple[TermChange, None]:
        return TermChange(put=(quux,)), None

    on_store(db, lambda store: change_terms(store, 5, put, 9), migrate=Migrate.CREATE_ONLY)
    write = Store.import_aliases

    async def removed_first(self: Store, *args: Any, **kwargs: Any) -> list[AddAliasResult]:
        def plan(terms: list[ServerTerm], aliases: Mapping[str, str]) -> tuple[TermChange, None]:
            return TermChange(remove=("quux",)), None

        await change_terms(self, 5, plan, 9)  # the bot's /term remove, a moment before
        return await write(self, *args, **kwargs)

    monkeypatch.setattr(Store, "import_aliases", removed_first)
    rows = [
        {"guild_id": 5, "alias": "qx", "entry_id": "quux"},
        {"guild_id": 5, "alias": "zorbword", "entry_id": "rag"},
    ]
    (tmp_path / "aliases.json").write_text(json.dumps(rows), encoding="utf-8")
    capsys.readouterr()
    status = main(["aliases", "import", "aliases.json", "--db", str(db), "--quiet"])
    said = capsys.readouterr()
    assert status == 1, said
    # product72: the server's lines are checked and written once more, against its terms as
    # they are now: the term's alias refused naming it, the other line added.
    assert said.err.splitlines() == ["item 1: There is no glossary entry with the id “quux”."]
    assert "added 1, already present 0, refused 1" in said.out, said
    assert on_store(db, lambda store: store.aliases(5)) == {"zorbword": "rag"}
