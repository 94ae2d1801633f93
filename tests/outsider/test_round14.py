"""What a fourteenth round of outside testing found: a moderator's weeks in Discord, the
scale-out path, observability, upgrades, members in other scripts, through `glossary-bot run`
against the fake Discord and the command line (tests/outsider/PLAN.md, round 14). What members
and moderators see in Discord is checked on a bot in this process, what a command says through
`bot.cli.main` here (a process each cost ~8 s on a loaded machine; trim57b): the process is what
test_round4, test_round13 and tests/resilience check."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.cards.chart import bins, lookups_chart
from bot.glossary.letters import fit
from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons, define, embed_of
from tests.fake_discord import FakeUser
from tests.resilience.botproc import CLI_ENV, glossary_bot_run_here

from .conftest import Scene
from .test_round10 import first_schema_database


async def _suggest(scene: Scene, member: FakeUser, name: str) -> None:
    fake = scene.fake
    opened = await fake.slash(member, "suggest", {"term": name}, channel=scene.channel)
    await opened.response()
    sent = await fake.submit_modal(member, opened, {"definition": "What it means, in my words."})
    assert (await sent.final_message())["content"].startswith("Thanks!")


async def _accept_first(scene: Scene, form: dict[str, str]) -> str:
    """`/term review`, Accept… on the oldest suggestion, the form saved with `form`'s changes."""
    fake = scene.fake
    review = await fake.slash(
        scene.moderator, "term review", {"category": "Fundamentals"}, channel=scene.channel
    )
    shown = await review.final_message()
    accept = await fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
    await accept.response()
    saved = await fake.submit_modal(scene.moderator, accept, form)
    return str((await saved.final_message())["content"])


async def test_a_suggestion_accepted_under_another_name_tells_the_member_that_name(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Plan line X6: a moderator accepts "Zorblax" and saves it as "Zorblax Pipeline": the
    member was told "Your suggestion “Zorblax” … was added … Look it up with `/define`", and
    `/define Zorblax` then finds nothing. Now the DM names the term as it was saved."""
    fake = scene.fake
    async with start_bot(store):
        await _suggest(scene, scene.alice, "Zorblax")
        answer = await _accept_first(scene, {"title": "Zorblax Pipeline"})
        assert answer.startswith("Added **Zorblax Pipeline**"), answer
        told = (await fake.wait_for_channel_message(fake.dm_channel(scene.alice)))["content"]
        assert "was added to the glossary as “Zorblax Pipeline”" in told, told
        assert "`/define Zorblax Pipeline`" in told, told
        _, card = await define(fake, scene.alice, "Zorblax Pipeline", scene.channel)
        assert embed_of(card)["title"] == "Zorblax Pipeline"


async def test_accepting_a_suggestion_closes_the_others_of_that_name(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Plan line X9: three members suggested "Zorblax" before a moderator got to the queue.
    Accepting the first added the term, but the other two stayed "waiting": Accept on them
    said the name is taken (nothing saved), and the only way out, Reject, told those members
    their term was "not added to the glossary" while it was there. Now accepting one accepts
    its namesakes too (each member told, each in the log), and the queue is empty."""
    fake = scene.fake
    async with start_bot(store):
        for member in (scene.alice, scene.bob, scene.owner):
            await _suggest(scene, member, "Zorblax" if member is not scene.bob else "zorblax")
        answer = await _accept_first(scene, {})
        assert "Also accepted 2 other suggestions of that name" in answer, answer
        for member in (scene.bob, scene.owner):
            told = (await fake.wait_for_channel_message(fake.dm_channel(member)))["content"]
            assert "was added to the glossary by its moderators" in told, told
        review = await fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
        assert (await review.final_message())["content"].startswith("No suggestions are waiting")
        log = await fake.slash(scene.moderator, "term log", {}, channel=scene.channel)
        entries = embed_of(await log.final_message())["description"]
        assert entries.count("accepted the suggestion “") == 3, entries


def test_a_dash_is_standard_input_or_output_never_a_file_named_dash(tmp_path: Path) -> None:
    """Plan line X21: `terms export -o -`, `stats --chart -` and `backup -` each wrote a file
    named "-" in the working directory, silently, where the operator meant standard output;
    and `terms import -` said "cannot read -" while `aliases import -` reads standard input.
    Now `-o -` is standard output, `terms import -` reads standard input, and a file the
    command must write whole (`--chart`, `backup`) refuses `-` as a usage error."""
    db = str(tmp_path / "g.db")
    terms = '[[entries]]\nid = "zorb"\ntitle = "Zorb"\ncategory = "Fundamentals"\n'
    terms += 'definition = "A zorb."\n'
    imported = _cli(tmp_path, "terms", "import", "-", "--guild", "5", "--db", db, stdin=terms)
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.startswith("Imported: 1 added"), imported.stdout
    exported = _cli(tmp_path, "terms", "export", "--guild", "5", "--db", db, "-o", "-")
    assert exported.returncode == 0, exported.stderr
    assert 'title = "Zorb"' in exported.stdout, exported.stdout
    for command in (("stats", "--db", db, "--chart", "-"), ("backup", "--db", db, "-")):
        refused = _cli(tmp_path, *command)
        assert refused.returncode == 2, refused
        assert "expected a file name; '-' (standard output) is not one" in refused.stderr
    assert not (tmp_path / "-").exists()


def _cli(cwd: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        env=CLI_ENV,
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _here(cwd: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """`_cli` through `bot.cli.main` in this process, where what the command says and leaves is
    checked, not its process (`terms import -` in a process of its own: the dash test above)."""
    return glossary_bot_run_here(CLI_ENV, cwd, *args, stdin=stdin)


def test_migrate_db_says_it_copied_the_server_terms_and_their_history(tmp_path: Path) -> None:
    """Plan line X11: `migrate-db` of a file holding a server's terms (and their audit log)
    said "… 0 aliases, 0 audit entries; … now holds 0 lookups and 0 aliases (checked)": the
    terms were copied and checked, but the line named neither them nor suggestions, and its
    "0 audit entries" read as the terms' history lost. Now it names every table it checks."""

    db = str(tmp_path / "g.db")
    terms = '[[entries]]\nid = "zorb"\ntitle = "Zorb"\ncategory = "Fundamentals"\n'
    terms += 'definition = "A zorb."\n'
    assert _here(tmp_path, "terms", "import", "-", "--guild", "5", "--db", db, stdin=terms).stdout
    copied = _here(tmp_path, "migrate-db", "--from", db, "--to", str(tmp_path / "new.db"))
    assert copied.returncode == 0, copied.stderr
    assert "0 alias audit entries, 1 server term, 1 term audit entry, 0 suggestions" in (
        copied.stdout
    ), copied.stdout
    assert "now holds 0 lookups, 0 aliases, 1 server term and 0 suggestions (checked)" in (
        copied.stdout
    ), copied.stdout


async def test_removing_a_renamed_term_names_its_alias_in_good_grammar(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Plan lines X4-X5: an alias follows its term through a rename (`/alias list`, `/define`);
    the removal's question said "Its alias “qq zorbo” go with it." Now "goes" for one alias."""
    fake, mod = scene.fake, scene.moderator
    async with start_bot(store):
        opened = await fake.slash(
            mod, "term add", {"category": "Fundamentals"}, channel=scene.channel
        )
        await opened.response()
        form = {"title": "Zorblax", "definition": "A zorblax thing."}
        await (await fake.submit_modal(mod, opened, form)).final_message()
        added = await fake.slash(
            mod, "alias add", {"alias": "qq zorbo", "term": "zorblax"}, channel=scene.channel
        )
        assert (await added.final_message())["content"].startswith("Added"), "the alias"
        opened = await fake.slash(mod, "term edit", {"term": "zorblax"}, channel=scene.channel)
        await opened.response()
        await (await fake.submit_modal(mod, opened, {"title": "Zorblax Two"})).final_message()
        _, card = await define(fake, scene.alice, "qq zorbo", scene.channel)
        assert embed_of(card)["title"] == "Zorblax Two"
        asked = await fake.slash(mod, "term remove", {"term": "zorblax"}, channel=scene.channel)
        question = (await asked.final_message())["content"]
        assert "Its alias “qq zorbo” goes with it." in question, question


def test_a_chart_of_more_than_one_year_says_which_year() -> None:
    """Plan line X20: `stats --chart` (and `/stats` all time) of a bot that served for three
    years: the week axis read "Jan 01  May 13  Sep 23  Feb 03 …", each date without its year,
    so two Januaries looked like one, and two weeks had the same label. Now a chart that
    crosses a year names it on every label; one inside a year stays as it was."""
    now = datetime(2026, 12, 1, 14, 30, tzinfo=UTC)
    hours = {now - timedelta(days=d): 1 for d in range(0, 3 * 365, 3)}
    years, unit = bins(hours, None, now)
    assert unit == "week"
    labels = [b.label for b in years]
    assert len(set(labels)) == len(labels), "every week its own label"
    assert labels[0].endswith(" '23"), labels
    assert labels[-1].endswith(" '26"), labels
    within, _ = bins(hours, now - timedelta(days=30), now)
    assert within[-1].label == "Dec 01", within[-1]
    png = lookups_chart(hours, [("rag", 3)], since=None, now=now, title="all time")
    assert png.startswith(b"\x89PNG")


async def test_namesakes_accepted_say_when_their_member_could_not_be_told(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Plan line X7 (with X9's fix): the members' DMs closed (Discord refuses the messages):
    the moderator is told so for the suggestion accepted and for its namesake, no claim that
    anyone was told."""
    fake = scene.fake
    async with start_bot(store):
        for member in (scene.alice, scene.bob):
            await _suggest(scene, member, "Zorblax")
        fake.fail_next("POST", "/channels/{channel_id}/messages", status=403, times=2)
        answer = await _accept_first(scene, {})
    assert "Accepted the suggestion; the member could not be told (DMs closed)." in answer
    assert answer.endswith(
        "Also accepted 1 other suggestion of that name; its member could not be told (DMs closed)."
        "\nNo more suggestions are waiting."  # outsider43: an accept shows the next, or this
    ), answer


def test_writing_to_an_older_database_from_the_command_line_leaves_it_to_the_bot(
    tmp_path: Path,
) -> None:
    """Plan line X25: a database written by an older bot (schema 4 from main before V5, here
    the first schema), which that bot may still serve, and the new version's `aliases import`
    and `terms import` (writes) run on it, as an operator prepares an upgrade: both said
    "added" and upgraded the file to the newest schema under the older bot, which then refused
    it as "newer" at its next start. Reads already refused ("start the bot once"); writes now
    do too and leave the file byte for byte; a database that does not exist yet is still
    made."""

    db = tmp_path / "old.db"
    before = first_schema_database(db, 5)
    aliases = tmp_path / "aliases.json"
    aliases.write_text('[{"guild_id": 5, "alias": "qq zorbo", "entry_id": "rag"}]')
    terms = tmp_path / "terms.toml"
    terms.write_text(
        '[[entries]]\nid = "zorb"\ntitle = "Zorb"\ncategory = "Fundamentals"\n'
        'definition = "A zorb."\n'
    )
    for command in (("aliases", "import", str(aliases)), ("terms", "import", str(terms))):
        extra = ("--guild", "5") if command[0] == "terms" else ()
        done = _here(tmp_path, *command, *extra, "--db", str(db))
        assert done.returncode == 1, (command, done)
        assert done.stderr.strip().endswith("start the bot once to upgrade it"), done.stderr
        assert db.read_bytes() == before, command
    fresh = _here(tmp_path, "terms", "import", str(terms), "--guild", "5", "--db", "new.db")
    assert fresh.stdout.startswith("Imported: 1 added"), fresh


@pytest.mark.parametrize("shift", range(4))
@pytest.mark.parametrize("letters", ["क्षि", "Z\u0301\u0302\u0303", "👩\u200d💻"])
def test_a_name_cut_to_fit_keeps_its_letters_whole(letters: str, shift: int) -> None:
    """Plan line X30: `/term edit`'s autocomplete (and any card text cut to Discord's limits)
    of a 160-character Devanagari title, written without spaces: cut at the 96th character,
    inside a syllable ("क्ष" without its vowel sign, a letter without its accents, half an
    emoji sequence). Now the cut steps back to a whole letter."""
    text = "x" * shift + letters * 60
    shown = fit(text, 100)
    assert len(shown) <= 100
    kept = shown.removesuffix(" […]")
    assert kept != shown, shown
    assert text.startswith(kept)
    assert (len(kept) - shift) % len(letters) == 0, repr(kept[-8:])


async def test_a_term_written_directly_accepts_the_suggestions_waiting_for_it(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Beside X9: a moderator writes the term with `/term add` instead of from the queue,
    while a member's suggestion of that name waits: it stayed queued (Accept refused it as a
    name taken, Reject told the member "not added"). Now it is accepted with the save."""
    fake, mod = scene.fake, scene.moderator
    async with start_bot(store):
        await _suggest(scene, scene.alice, "zorblax")
        opened = await fake.slash(
            mod, "term add", {"category": "Fundamentals"}, channel=scene.channel
        )
        await opened.response()
        form = {"title": "Zorblax", "definition": "The nightly zorblax job."}
        answer = (await (await fake.submit_modal(mod, opened, form)).final_message())["content"]
        assert answer.endswith(
            "Also accepted 1 suggestion of that name; its member was told privately."
        ), answer
        told = (await fake.wait_for_channel_message(fake.dm_channel(scene.alice)))["content"]
        assert "`/define Zorblax`" in told, told
        review = await fake.slash(mod, "term review", {}, channel=scene.channel)
        assert (await review.final_message())["content"].startswith("No suggestions are waiting")
