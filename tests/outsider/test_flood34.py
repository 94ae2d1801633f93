"""Round 25's T8, tried (flood34): a `/term edit` form outlived by the command line's `terms
import`, which removed its term in another process while the form was open (tests/outsider/
PLAN.md, "Floods and a form outlived (flood34)"). The real bot against the fake Discord, the
real `glossary-bot` command in a process of its own, on one SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import buttons, define, embed_of
from tests.discord_app.term_commands import add_term, open_edit, submit

from .conftest import Scene
from .test_round14 import _cli

OTHER = (
    '[[entries]]\nid = "blapunit"\ntitle = "Blap Unit"\ncategory = "Fundamentals"\n'
    'definition = "The operator\'s own measure of blaps."\n'
)


async def test_an_edit_form_whose_term_the_command_line_removed_saves_nothing_over_it(
    scene: Scene, bot: GlossaryBot, store: Store, tmp_path: Path
) -> None:
    """Plan line T8 (round 25): a moderator's `/term edit` form for Zorblax is open while the
    operator's `terms import` (another process) replaces the server's terms with a file that
    lacks it; the moderator submits at once, before the bot has been told of the import. Their
    save must say the term was removed meanwhile and write nothing (no row brought back, no
    audit line), Edit again must add their text as a new term knowingly, and the audit log must
    read: added by the moderator, removed by the operator, added again by the moderator."""
    assert (await add_term(scene))["content"].startswith("Added **Zorblax**")
    mine = await open_edit(scene, scene.moderator, "zorblax")
    file = tmp_path / "terms.toml"
    file.write_text(OTHER)
    guild, db = str(scene.guild.id), str(scene.db_path)
    imported = _cli(tmp_path, "terms", "import", str(file), "--guild", guild, "--db", db)
    assert imported.returncode == 0, imported.stdout + imported.stderr
    assert "1 added" in imported.stdout, imported.stdout
    assert "1 removed" in imported.stdout, imported.stdout

    told = await submit(scene, scene.moderator, mine, {"definition": "My newer words for it."})
    assert told["content"].startswith("Nothing was saved"), told["content"]
    assert "removed while you edited it" in told["content"], told["content"]
    assert "Traceback" not in told["content"]
    assert [t.id for t in await read_terms(store, scene.guild.id)] == ["blapunit"]
    log = await store.term_audit_log(scene.guild.id)
    # Newest first: the operator's import (actor 0, "operator" in `terms log`), one line a term
    # (the removed one's `after` empty), then the moderator's add: the refused save wrote none.
    assert [(a.action, a.term_id, a.actor_id) for a in log] == [
        ("term_import", "blapunit", 0),
        ("term_import", "zorblax", 0),
        ("term_add", "zorblax", scene.moderator.id),
    ]
    assert log[1].after is None
    assert log[1].before is not None

    again = await scene.fake.click(scene.moderator, told, buttons(told)["Edit again"])
    assert (await again.response())["type"] == 9  # the form, as a new term now
    saved = await submit(scene, scene.moderator, again, {})
    assert saved["content"].startswith("Added **Zorblax**"), saved["content"]
    terms = {t.id: t for t in await read_terms(store, scene.guild.id)}
    assert sorted(terms) == ["blapunit", "zorblax"]
    assert terms["zorblax"].definition == "My newer words for it."
    assert terms["blapunit"].definition == "The operator's own measure of blaps."
    [newest, *_] = await store.term_audit_log(scene.guild.id)
    assert (newest.action, newest.term_id, newest.actor_id) == (
        "term_add",
        "zorblax",
        scene.moderator.id,
    )
    assert newest.before is None  # a new term, not an edit of a row that was gone
    assert json.loads(newest.after or "{}")["definition"] == "My newer words for it."
    _, card = await define(scene.fake, scene.alice, "zorblax", scene.channel)
    assert "My newer words for it." in embed_of(card)["description"]
