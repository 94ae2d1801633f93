"""left75 (tests/outsider/PLAN.md, "left75"): loose ends the session's helpers noticed."""

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
from .test_frame72 import _form
from .test_mend71 import database  # noqa: F401  (the fixture)
from .test_mend72 import checked_db
from .test_outsider69 import import_file
from .test_product70 import _imported
from .test_review71 import ONE_ENTRY

# -- 1. A server term's name starting with markup search reads away: refused as an alias is --

# (name, how search reads it): a heading, subtext and list marks
MARKED = [
    ("# Zorbish", "zorbish"),
    ("-# quux", "quux"),
    ("1. blorp", "blorp"),
    ("• plonk", "plonk"),
]
ZORB = ServerTerm(
    id="zorblax", title="Zorblax", definition="Our nightly rerank.", category="Fundamentals"
)


def _refused(name: str, read: str) -> str:
    return (
        f"“{name}” starts with Discord markup that search reads away (“{name}” is read as “{read}”)"
    )


@pytest.mark.parametrize(("name", "read"), MARKED)
async def test_term_add_refuses_a_title_or_other_name_starting_with_markup(
    scene: Scene, bot: GlossaryBot, store: Store, name: str, read: str
) -> None:
    """review74 refused such an alias (`/alias add "# zorb"`), but `/term add` took the title
    "# Zorbish" or the other name "1. blorp" (found as typed and without the mark, or "1. Blorp"
    only as a typo): the same rule now, saying how search reads it. Failed before (added)."""
    for values in (
        {"title": name, "definition": "A made-up thing."},
        {"title": "Zorblax", "definition": "A made-up thing.", "other_names": f"zx, {name}"},
    ):
        said = await _form(scene, "term add", {"category": "Fundamentals"}, values)
        assert said.startswith("Nothing was saved"), (values, said)
        assert _refused(name, read) in said, (values, said)
        assert f"Use “{read}”." in said, said
    assert await read_terms(store, scene.guild.id) == []
    said = await _form(
        scene,
        "term add",
        {"category": "Fundamentals"},
        {"title": "Zorblax", "definition": "A made-up thing.", "other_names": f"zx, {read}"},
    )
    assert said.startswith("Added **Zorblax**"), said


async def test_term_edit_refuses_an_other_name_starting_with_markup(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Failed before (saved)."""
    await change_terms(store, scene.guild.id, lambda *_: (TermChange(put=(ZORB,)), None), 1)
    bot.state.servers.forget(scene.guild.id)
    said = await _form(scene, "term edit", {"term": "zorblax"}, {"other_names": "zx, 1. blorp"})
    assert said.startswith("Nothing was saved"), said
    assert _refused("1. blorp", "blorp") in said, said
    assert await read_terms(store, scene.guild.id) == [ZORB]


MARKED_FILE = (
    '[[entries]]\ntitle = "# Zorbish"\ncategory = "Fundamentals"\ndefinition = "A thing."\n\n'
    '[[entries]]\ntitle = "Zorblax"\ncategory = "Fundamentals"\ndefinition = "A thing."\n'
    'aliases = ["zx", "-# quux"]\n'
)


async def test_term_import_refuses_names_starting_with_markup(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Failed before (both imported)."""
    said = await import_file(scene, "ours.toml", MARKED_FILE)
    assert said.startswith("Nothing was imported: 2 problems"), said
    assert _refused("# Zorbish", "zorbish") in said, said
    assert _refused("-# quux", "quux") in said, said
    assert await read_terms(store, scene.guild.id) == []


def test_terms_import_refuses_names_starting_with_markup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`glossary-bot terms import`. Failed before (exit 0, imported)."""
    monkeypatch.chdir(tmp_path)
    code, said = _imported(tmp_path, capsys, "ours.toml", MARKED_FILE)
    assert code == 1, said
    assert _refused("# Zorbish", "zorbish") in said, said
    assert _refused("-# quux", "quux") in said, said


STORED = ZORB.model_copy(update={"aliases": ("zx", "# zorbish")})


def test_check_db_warns_of_a_term_name_stored_with_markup_and_its_export_imports_back(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    database: str,  # noqa: F811  (the fixture)
) -> None:
    """Stored before it was refused: one warning naming the server, the term and the name (as
    for an alias stored so); the term kept, and the server's own export imports back (a
    warning). Failed before (no line)."""
    status, lines = checked_db(database, tmp_path, monkeypatch, capsys, [STORED])
    named = [line for line in lines if _refused("# zorbish", "zorbish") in line]
    assert len(named) == 1, lines
    assert "server 5" in named[0], named
    assert "(id 'zorblax')" in named[0], named
    assert "rename it (/term edit)" in named[0], named
    assert status == 0, lines
    exported = main(["terms", "export", "--guild", "5", "--db", database, "-o", "back.toml"])
    assert exported == 0, capsys.readouterr()
    capsys.readouterr()
    status = main(["terms", "import", "back.toml", "--guild", "5", "--db", database])
    out = capsys.readouterr()
    assert status == 0, out
    assert "Kept as stored" in out.out + out.err, out
    assert on_store(database, lambda store: read_terms(store, 5), migrate=Migrate.UPGRADE) == [
        STORED
    ]


# -- 2. A reference's userinfo said as it is: a user name alone is no "user:pass@" --


@pytest.mark.parametrize(
    ("reference", "held"),
    [
        ("https://admin@example.org/page", "a user name (“name@”)"),
        ("https://admin:s3cret@example.org/page", "a user name and a password (“name:password@”)"),
        ("https://:s3cret@example.org/page", "a password (“:password@”)"),
        ("https://admin:s3cret@[wiki.example.org/page", "a user name and a password"),
    ],
    ids=["user", "user-and-password", "password", "unparsed"],
)
def test_a_reference_s_userinfo_is_said_as_it_is_without_quoting_it(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    reference: str,
    held: str,
) -> None:
    """review75: "has a user name or password before its host (“user:pass@”)" was said of
    "https://admin@example.org/" too, which holds no password. Now what is there, by its shape;
    neither the name nor the password quoted. Failed before (the user-name case, the password
    case)."""
    monkeypatch.chdir(tmp_path)
    code, said = _imported(
        tmp_path, capsys, "ours.toml", ONE_ENTRY + f'reference = "{reference}"\n'
    )
    assert code == 1, said
    assert f"Reference: reference URL has {held}" in said, said
    assert "admin" not in said, said
    assert "s3cret" not in said, said
