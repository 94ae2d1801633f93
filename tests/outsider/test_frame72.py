"""frame72 (tests/outsider/PLAN.md, "frame72"): a server term's title, acronym or other name that
is only a question's wording or filler ("what is", "explain", "pls", "the") is refused as mend72
refused such an alias: search leaves those words out around the term asked, so a term so named
answered "what is it" (review72 B)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.discord_app.app import GlossaryBot
from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from bot.storage.backend import Migrate
from bot.storage.cli import on_store
from bot.term_storage import TermChange, change_terms, read_terms

from .conftest import Scene
from .test_mend71 import database  # noqa: F401  (the fixture)
from .test_mend72 import FRAMING

REASON = "is only the wording of a question (or filler)"
ZORB = ServerTerm(
    id="zorblax", title="Zorblax", definition="Our nightly rerank.", category="Fundamentals"
)


async def _form(scene: Scene, command: str, options: dict[str, str], values: dict[str, str]) -> str:
    opened = await scene.fake.slash(scene.moderator, command, options, channel=scene.channel)
    assert (await opened.response())["type"] == 9
    said = await (await scene.fake.submit_modal(scene.moderator, opened, values)).final_message()
    return str(said["content"])


async def test_term_add_refuses_a_title_or_other_name_of_only_a_question_s_words(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Each such title, and each such other name, is refused naming it and why; nothing is
    stored. Before, each was added, and "what is it" then offered the term."""
    for name in FRAMING:
        said = await _form(
            scene,
            "term add",
            {"category": "Fundamentals"},
            {"title": name, "definition": "A made-up thing."},
        )
        assert said.startswith("Nothing was saved"), (name, said)
        assert f"“{name}” {REASON}" in said, (name, said)
        said = await _form(
            scene,
            "term add",
            {"category": "Fundamentals"},
            {"title": "Zorblax", "definition": "A made-up thing.", "other_names": f"zx, {name}"},
        )
        assert said.startswith("Nothing was saved"), (name, said)
        assert f"“{name}” {REASON}" in said, (name, said)
    assert await read_terms(store, scene.guild.id) == []
    # words said to the bot stay names (as for aliases), and a name holding a term is fine
    said = await _form(
        scene,
        "term add",
        {"category": "Fundamentals"},
        {"title": "Zorblax", "definition": "A made-up thing.", "other_names": "thanks, the zx"},
    )
    assert said.startswith("Added **Zorblax**"), said


async def test_term_add_names_every_problem_at_once(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """outsider71's rule: a framing title, a framing acronym and another name with a link are
    three problems in one answer."""
    said = await _form(
        scene,
        "term add",
        {"category": "Fundamentals", "acronym": "pls"},
        {"title": "what is", "definition": "A made-up thing.", "other_names": "zorb.com"},
    )
    assert said.startswith("Nothing was saved"), said
    assert f"“what is” {REASON}" in said, said
    assert f"“pls” {REASON}" in said, said
    assert "cannot contain links" in said, said


async def test_term_edit_refuses_a_framing_title_or_other_name(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    await change_terms(store, scene.guild.id, lambda *_: (TermChange(put=(ZORB,)), None), 1)
    bot.state.servers.forget(scene.guild.id)
    for values in ({"title": "explain"}, {"other_names": "zx, what is that"}):
        said = await _form(scene, "term edit", {"term": "zorblax"}, values)
        assert said.startswith("Nothing was saved"), (values, said)
        assert REASON in said, (values, said)
    assert await read_terms(store, scene.guild.id) == [ZORB]


FILE = (
    '[[entries]]\ntitle = "what is"\ncategory = "Fundamentals"\ndefinition = "A thing."\n\n'
    '[[entries]]\ntitle = "Zorblax"\ncategory = "Fundamentals"\ndefinition = "A thing."\n'
    'aliases = ["zx", "pls"]\n'
)


def test_terms_import_refuses_them_naming_each(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    database: str,  # noqa: F811  (the fixture)
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GLOSSARY_PATHS", "")
    (tmp_path / "ours.toml").write_text(FILE, "utf-8")
    status = main(["terms", "import", "ours.toml", "--guild", "5", "--db", database])
    out = capsys.readouterr()
    said = out.out + out.err
    assert status == 1, said
    assert f"“what is” {REASON}" in said, said
    assert f"“pls” {REASON}" in said, said
    assert on_store(database, lambda store: read_terms(store, 5), migrate=Migrate.UPGRADE) == []


async def test_term_import_refuses_them(scene: Scene, bot: GlossaryBot, store: Store) -> None:
    upload = scene.fake.add_attachment("ours.toml", FILE)
    handle = await scene.fake.slash(
        scene.moderator, "term import", {"file": upload}, channel=scene.channel
    )
    said = str((await handle.final_message())["content"])
    assert f"“what is” {REASON}" in said, said
    assert f"“pls” {REASON}" in said, said
    assert await read_terms(store, scene.guild.id) == []


STORED = ZORB.model_copy(update={"aliases": ("zx", "what is")})


def test_check_db_lists_terms_stored_with_such_names_and_keeps_them(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    database: str,  # noqa: F811  (the fixture)
) -> None:
    """Stored before they were refused: one line naming the server, the term and the name; the
    term is kept as stored, and a re-import of the server's export keeps it (with a warning)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GLOSSARY_PATHS", "")

    async def put(store: Store) -> None:
        await change_terms(store, 5, lambda *_: (TermChange(put=(STORED,)), None), 4242)

    on_store(database, put, migrate=Migrate.UPGRADE)
    capsys.readouterr()
    status = main(["check", "--db", database])
    out = capsys.readouterr()
    lines = (out.out + out.err).splitlines()
    named = [line for line in lines if f"“what is” {REASON}" in line]
    assert len(named) == 1, lines
    assert "server 5" in named[0], named
    assert "(id 'zorblax')" in named[0], named
    assert not [line for line in lines if "“zx”" in line], lines
    assert status == 0, lines
    exported = main(["terms", "export", "--guild", "5", "--db", database, "-o", "back.toml"])
    assert exported == 0, capsys.readouterr()
    capsys.readouterr()
    status = main(["terms", "import", "back.toml", "--guild", "5", "--db", database])
    out = capsys.readouterr()
    assert status == 0, out
    assert on_store(database, lambda store: read_terms(store, 5)) == [STORED]


async def test_a_term_stored_with_such_a_name_is_shown_and_an_edit_must_rename_it(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Stored before it was refused: its card opens as before; `/term edit` saves it only once
    the name is taken out, saying which name and why."""
    await change_terms(store, scene.guild.id, lambda *_: (TermChange(put=(STORED,)), None), 1)
    bot.state.servers.forget(scene.guild.id)
    card = await (
        await scene.fake.slash(scene.alice, "define", {"term": "zorblax"}, channel=scene.channel)
    ).final_message()
    assert card["embeds"][0]["title"].startswith("Zorblax"), card
    said = await _form(scene, "term edit", {"term": "zorblax"}, {"definition": "Ours, edited."})
    assert said.startswith("Nothing was saved"), said
    assert f"“what is” {REASON}" in said, said
    assert await read_terms(store, scene.guild.id) == [STORED]
    said = await _form(
        scene,
        "term edit",
        {"term": "zorblax"},
        {"definition": "Ours, edited.", "other_names": "zx"},
    )
    assert said.startswith("Saved **Zorblax**"), said
