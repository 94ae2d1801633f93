"""outsider71: names search reads as another term's, accepted for a second term (family c).

`/alias add` refuses "zorblax 🙂" or "the zorblax" beside a "zorblax" of another entry: search
reads them alike. A server term's other names were checked only as written (`compact`), so an
import took "quuxwidget ★", "the quuxwidget", "what is quuxwidget" or "📦 zorbnet" as names of
one term beside another term "Quuxwidget" (and "rag ✓" beside the bundled RAG): typed, each
opened the other card, never its own (`search` with the file as data: "match exact qq-one").
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.discord_app.app import GlossaryBot
from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from bot.term_storage import TermChange, change_terms, read_terms
from tests.discord_app.term_commands import TERM, open_add, submit
from tests.resilience.botproc import CLI_ENV, glossary_bot_here

from .conftest import Scene


def _entry(title: str, other_names: list[str], definition: str) -> str:
    names = ", ".join(f'"{n}"' for n in other_names)
    return (
        f'[[entries]]\ntitle = "{title}"\naliases = [{names}]\n'
        f'category = "Fundamentals"\ndefinition = "{definition}"\n\n'
    )


async def import_file(scene: Scene, name: str, data: str, **options: Any) -> str:
    file = scene.fake.add_attachment(name, data)
    asked = await scene.fake.slash(
        scene.moderator, "term import", {"file": file, **options}, channel=scene.channel
    )
    return str((await asked.final_message())["content"])


async def test_a_name_search_reads_as_another_terms_is_refused(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Failed before: the file was imported whole ("Imported: 2 added")."""
    around = ["quuxwidget ★", "the quuxwidget", "what is quuxwidget", "quuxwidget 🔧"]
    text = _entry("Quuxwidget", [], "One.") + _entry("Quux Widget Two", around, "Two.")
    answer = await import_file(scene, "terms.toml", text)
    assert answer.startswith("Nothing was imported: 4 problems"), answer
    for name in around:
        assert f"“{name}” is read by search as “quuxwidget”, a name of “Quuxwidget”" in answer
    assert await read_terms(store, scene.guild.id) == []


async def test_either_order_and_a_bundled_name(scene: Scene, bot: GlossaryBot) -> None:
    """The term whose name another's is read as comes second in the file; a name read as a
    bundled entry's ("rag ✓" beside RAG) is refused as `/alias add` refuses it. Failed before."""
    text = _entry("Quux Widget Two", ["quuxwidget ★", "rag ✓"], "Two.") + _entry(
        "Quuxwidget", [], "One."
    )
    answer = await import_file(scene, "terms.toml", text, dry_run=True)
    assert answer.startswith("Nothing was imported: 2 problems"), answer
    assert "“rag ✓” is read by search as “rag”, the bundled glossary's name for" in answer
    assert "search reads “quuxwidget ★”, a name of “Quux Widget Two”" in answer
    assert "as “Quuxwidget”" in answer


async def test_a_terms_own_names_and_names_nobody_has_still_import(
    scene: Scene, bot: GlossaryBot
) -> None:
    """What held before holds: a name read as one of the term's own ("the star thing" of
    "Star Thing ★"), or as a name nobody has, is taken."""
    text = _entry("Star Thing ★", ["the star thing"], "Own.") + _entry(
        "Quux Widget Two", ["quuxwidget ★"], "Two."
    )
    answer = await import_file(scene, "terms.toml", text)
    assert answer.startswith("Imported: 2 added"), answer


async def test_a_pair_stored_before_the_rule_imports_back(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """A server that stored such a pair before keeps it: its own export imports back (the
    rule's old pairs, as for the other number), said as a warning."""
    pair = (
        ServerTerm(id="quuxwidget", title="Quuxwidget", definition="One.", category="Fundamentals"),
        ServerTerm(
            id="quux-widget-two",
            title="Quux Widget Two",
            aliases=("quuxwidget ★",),
            definition="Two.",
            category="Fundamentals",
        ),
    )
    await change_terms(store, scene.guild.id, lambda *_: (TermChange(put=pair), None), 1)
    exported = await scene.fake.slash(scene.moderator, "term export", {}, channel=scene.channel)
    message = await exported.final_message()
    [attachment] = message["attachments"]
    data = scene.fake.attachment_bytes(attachment).decode()
    answer = await import_file(scene, "export.toml", data)
    assert answer.startswith("Nothing changed: the file holds this server's terms"), answer
    stored = await read_terms(store, scene.guild.id)
    assert sorted(stored, key=lambda t: t.id) == sorted(pair, key=lambda t: t.id)


async def test_a_waiting_suggestion_search_reads_as_the_new_terms_name_is_accepted(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """alice suggested "zorbquux ★"; a term "Zorbquux" added since opens it (`/define
    zorbquux ★` gives its card: search leaves the star out), but her suggestion stayed waiting,
    "Also accepted" naming only one written as the term is: a moderator could only reject it
    ("not added") about a name that opens a card. Failed before: it stayed open."""
    await store.add_suggestion(scene.guild.id, scene.alice.id, "zorbquux ★", "A thing we use.")
    await store.add_suggestion(scene.guild.id, scene.bob.id, "the zorbquux", "The same.")
    await store.add_suggestion(scene.guild.id, scene.moderator.id, "zorbquuxes", "Other number.")
    answer = await import_file(scene, "terms.toml", _entry("Zorbquux", [], "Ours."))
    assert answer.startswith("Imported: 1 added"), answer
    waiting = [s.title for s in await store.open_suggestions(scene.guild.id)]
    assert waiting == ["zorbquuxes"]  # another number: the moderators decide it


async def test_a_refused_forms_related_terms_are_checked_too(
    scene: Scene, bot: GlossaryBot
) -> None:
    """README: every problem is listed in the answer. A form refused for its title said nothing
    of a related term no glossary has: the moderator fixed the title, saved, and only then
    heard of it. Failed before: one problem listed. A related name that is a refused term of
    the same file is no dangling name (as before)."""
    opened = await scene.fake.slash(
        scene.moderator, "term add", {"category": "Fundamentals"}, channel=scene.channel
    )
    await opened.response()
    values = {"title": "@everyone", "definition": "Ours.", "related": "nothing-here-at-all"}
    sent = await scene.fake.submit_modal(scene.moderator, opened, values)
    answer = str((await sent.final_message())["content"])
    assert "Title: “@\u200beveryone”: A name cannot contain mentions." in answer, answer
    assert "Related terms: no term of this server or the bundled glossary is called" in answer
    text = _entry("@everyone", [], "One.") + _entry("Fine", [], "Two.").replace(
        "aliases = []", 'related = ["@everyone"]'
    )
    answer = await import_file(scene, "terms.toml", text, dry_run=True)
    assert answer.startswith("Nothing was imported: 1 problem"), answer


async def test_the_form_refuses_a_name_search_reads_as_another_terms(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """The form (`/term add`) as the import: "the quuxwidget" beside a term Quuxwidget is
    refused, naming it. layer71: the terms cog gives the check search's reading; without it
    the form took the name (this failed with the cog passing none)."""
    answer = await import_file(scene, "terms.toml", _entry("Quuxwidget", [], "One."))
    assert answer.startswith("Imported: 1 added"), answer
    opened = await open_add(scene, scene.moderator, category="Fundamentals")
    values = {**TERM, "title": "Quux Widget Two", "other_names": "the quuxwidget"}
    said = (await submit(scene, scene.moderator, opened, values))["content"]
    assert "“the quuxwidget” is read by search as “quuxwidget”, a name of" in said, said
    assert [t.title for t in await read_terms(store, scene.guild.id)] == ["Quuxwidget"]


async def test_the_command_line_import_accepts_a_suggestion_search_reads_as_its_name(
    tmp_path: Path,
) -> None:
    """`glossary-bot terms import` as `/term import`: a waiting "zorbquux ★" is accepted with a
    term Zorbquux (`accept_as_operator` given search's reading); another number still waits."""
    db = tmp_path / "bot.db"
    store = await Store.open(db, flush_interval=None)
    try:
        await store.add_suggestion(7, 1, "zorbquux ★", "A thing we use.")
        await store.add_suggestion(7, 2, "zorbquuxes", "Other number.")
    finally:
        await store.close()
    (tmp_path / "ours.toml").write_text(_entry("Zorbquux", [], "Ours."), encoding="utf-8")
    status, said = await asyncio.to_thread(
        glossary_bot_here, CLI_ENV, tmp_path, "terms", "import", "ours.toml", "--guild", "7",
        "--db", str(db),
    )  # fmt: skip
    assert status == 0, said
    assert "Also accepted 1 waiting suggestion of that name" in said, said
    store = await Store.open(db, flush_interval=None)
    try:
        assert [s.title for s in await store.open_suggestions(7)] == ["zorbquuxes"]
    finally:
        await store.close()
