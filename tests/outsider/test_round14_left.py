"""What round 14 of outside testing noticed and left (tests/outsider/PLAN.md, round 14, "Noticed,
left"), each through the real command line or the bot against the fake Discord (in this
process where a member's or moderator's answers are checked, a process where the process is:
trim57b)."""

from __future__ import annotations

import json
from pathlib import Path

from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import embed_of
from tests.resilience.botproc import BotProcess

from .conftest import Scene
from .test_round14 import _cli, _suggest

ZORBLAX = (
    '[[entries]]\nid = "zorblax"\ntitle = "Zorblax"\ncategory = "Fundamentals"\n'
    'definition = "The nightly zorblax job."\n'
)


async def test_a_term_imported_accepts_the_suggestions_waiting_for_it(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """A file imported with `/term import` adds a term under the name of a member's waiting
    suggestion: the suggestion stayed queued (Reject would tell its member "not added" about a
    term that is there). Now it is accepted with the import, as with `/term add`."""
    fake, mod = scene.fake, scene.moderator
    async with start_bot(store):
        await _suggest(scene, scene.alice, "zorblax")
        upload = fake.add_attachment("terms.toml", ZORBLAX)
        handle = await fake.slash(mod, "term import", {"file": upload}, channel=scene.channel)
        answer = str((await handle.final_message())["content"])
        assert answer.startswith("Imported: 1 added"), answer
        assert answer.endswith(
            "Also accepted 1 suggestion of that name; its member was told privately."
        ), answer
        told = (await fake.wait_for_channel_message(fake.dm_channel(scene.alice)))["content"]
        assert "`/define Zorblax`" in told, told
        review = await fake.slash(mod, "term review", {}, channel=scene.channel)
        assert (await review.final_message())["content"].startswith("No suggestions are waiting")


async def test_a_term_imported_from_the_command_line_accepts_the_waiting_suggestions(
    scene: Scene, start_bot: StartBot, tmp_path: Path
) -> None:
    """The same through `glossary-bot terms import`: the command line cannot message members,
    so the suggestion is accepted in the database, the term log naming the command line, and
    the printed line says so; a dry run accepts nothing."""
    fake, mod = scene.fake, scene.moderator
    async with start_bot(await Store.open(scene.db_path)):  # closed (written) at the end
        await _suggest(scene, scene.alice, "zorblax")
    terms = tmp_path / "terms.toml"
    terms.write_text(ZORBLAX)
    db = str(scene.db_path)
    args = ("terms", "import", str(terms), "--guild", str(scene.guild.id), "--db", db)
    dry = _cli(tmp_path, *args, "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "suggestion" not in dry.stdout, dry.stdout
    done = _cli(tmp_path, *args)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith(
        "Also accepted 1 waiting suggestion of that name; its member was not told "
        "(the command line cannot message members)."
    ), done.stdout
    log = _cli(tmp_path, "terms", "log", "--guild", str(scene.guild.id), "--db", db)
    assert "an operator (command line) accepted the suggestion “zorblax”" in log.stdout, log
    async with start_bot(await Store.open(scene.db_path)):  # reads what the command wrote
        review = await fake.slash(mod, "term review", {}, channel=scene.channel)
        assert (await review.final_message())["content"].startswith("No suggestions are waiting")
        listed = await fake.slash(mod, "term log", {}, channel=scene.channel)
        assert (
            "accepted the suggestion “zorblax”"
            in embed_of(await listed.final_message())["description"]
        )


async def test_stats_on_the_command_line_names_top_terms_by_title(tmp_path: Path) -> None:
    """`glossary-bot stats` listed top terms by entry id ("kv-cache") where `/stats` and the
    chart show titles. Now the text names each as `/stats` does (a server's own terms with
    `--guild`, "(removed)" for one no longer there), its id beside it for operators;
    `--json` keeps the ids it documents."""
    db = tmp_path / "g.db"
    store = await Store.open(db, flush_interval=None)
    for entry_id in ("kv-cache", "kv-cache", "kv-cache", "zorblax", "zorblax", "gone-term"):
        store.record_lookup(5, entry_id)
    await store.close()
    terms = tmp_path / "terms.toml"
    terms.write_text(ZORBLAX)
    assert _cli(tmp_path, "terms", "import", str(terms), "--guild", "5", "--db", str(db)).stdout
    shown = _cli(tmp_path, "stats", "--guild", "5", "--db", str(db))
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    top = lines[lines.index("Top terms:") + 1 : lines.index("Top missed searches:")]
    assert [line.split(None, 1)[1] for line in top] == [
        "KV Cache  [kv-cache]",
        "Zorblax  [zorblax]",
        "gone-term (removed)",
    ], top
    as_json = json.loads(_cli(tmp_path, "stats", "--guild", "5", "--db", str(db), "--json").stdout)
    assert as_json["top_terms"][0] == {"entry_id": "kv-cache", "count": 3}


async def test_a_second_bot_on_the_file_says_at_once_that_it_waits_for_the_first(
    scene: Scene, tmp_path: Path
) -> None:
    """A second `run` on the same SQLite file said nothing for 10 s, then refused. The wait is
    the handover of a restart that starts the new bot before the old one has stopped (the
    kernel frees a crashed bot's lock at once, so a restart after a crash never waits); the
    bot now says at once whom it waits for and how long, and then refuses with the same
    line as before."""
    fake = scene.fake
    async with BotProcess(fake, scene.db_path, cwd=tmp_path):
        second = BotProcess(fake, scene.db_path, cwd=tmp_path)
        await second.start(wait_ready=False)
        waiting = await second.wait_for_output(r"waiting up to 10 s for it to stop")
        assert "another bot runs on" in waiting, waiting
        assert "(glossary-bot all shards pid " in waiting, waiting  # the first, named
        assert await second.exited(within=60) == 2, second.output
    [refused] = [x for x in second.lines if x.startswith("glossary-bot:")]
    assert "another bot runs on this SQLite file" in refused, refused
    assert second.lines.index(refused) > second.lines.index(waiting), second.output


def test_a_second_migrate_db_force_says_it_added_the_copy_again(tmp_path: Path) -> None:
    """Plan line X12, left as documented: `migrate-db --force` adds to the target, so the same
    copy run twice counts its lookups twice and appends its audit logs and open suggestions
    again (terms and aliases the target has are kept). Lookup counts cannot be told apart
    from the target's own, so a second run is not made idempotent: the line now says plainly
    what `--force` added on top of data already there, and that running it again adds it
    again."""
    db, target = str(tmp_path / "g.db"), str(tmp_path / "new.db")
    assert _cli(tmp_path, "terms", "import", "-", "--guild", "5", "--db", db, stdin=ZORBLAX).stdout
    first = _cli(tmp_path, "migrate-db", "--from", db, "--to", target, "--force")
    assert first.returncode == 0, first.stderr
    assert "added to what" not in first.stdout, first.stdout  # the target was empty
    second = _cli(tmp_path, "migrate-db", "--from", db, "--to", target, "--force")
    assert second.returncode == 0, second.stderr
    assert "now holds 0 lookups, 0 aliases, 1 server term " in second.stdout, second.stdout
    assert second.stdout.strip().endswith(
        f"--force: added to what {target} already held (its lookups, missed searches, audit "
        "logs and suggestions now include this copy's; its own server terms and aliases kept); "
        "running the same copy again adds them again"
    ), second.stdout
