"""review72 (tests/outsider/PLAN.md, "review72"): attacks on the seventh session's changes as an
outsider makes them."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.dburl import without_password
from bot.discord_app.app import GlossaryBot
from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from bot.storage.cli import on_store
from bot.term_storage import TermChange, change_terms, read_terms
from tests.discord_app.helpers import buttons
from tests.fake_discord import FakeDiscord
from tests.resilience.botproc import CLI_ENV, BotProcess, glossary_bot_here
from tests.resilience.conftest import StartBot

from .conftest import Scene
from .test_category71 import ZORBLAX, pick, refused_for_category
from .test_mend71 import database  # noqa: F401  (the fixture)
from .test_product70 import _imported
from .test_product71 import EXIT_WITHIN, WAYS_IN, _run, _signalled, _way_in
from .test_review71 import ONE_ENTRY, SECRET


@pytest.mark.parametrize(
    "reference",
    [
        "https://example.org:abc/page",  # a port that is no number
        "https://example.org:99999/page",  # a port past 65535
        "https://:443/page",  # a port and no host
        "https://example.org/a\\u0000b",  # a NUL (TOML's escape)
        "https://example.org/a\\tb",  # a tab
    ],
)
def test_a_reference_url_with_no_valid_port_host_or_with_control_characters_is_a_problem(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    reference: str,
) -> None:
    """review71 made an address urllib cannot split "bad reference URL". One it splits but that
    names no port (":abc", ":99999"), no host, or holds a control character was taken: the card's
    title links to it, an address no browser opens (and Discord checks a link's address). It is
    the same "bad reference URL", from `check` and from `terms import`."""
    monkeypatch.chdir(tmp_path)
    text = ONE_ENTRY + f'reference = "{reference}"\n'
    code, said = _imported(tmp_path, capsys, "ours.toml", text)
    assert code == 1, said
    assert "Reference: bad reference URL" in said, said
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "mine.toml").write_text(
        text.replace("[[entries]]\n", '[[entries]]\nid = "zorblax"\n')
    )
    status, said = glossary_bot_here(CLI_ENV, tmp_path, "check", str(folder))
    assert status == 1, said
    assert "bad reference URL" in said, said


@pytest.mark.parametrize(
    "reference",
    ["https://[::1]/page", "https://example.org:8443/page", "http://example.org/a%20b?q=1#x"],
)
def test_a_good_reference_url_is_taken(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    reference: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, said = _imported(
        tmp_path, capsys, "ours.toml", ONE_ENTRY + f'reference = "{reference}"\n'
    )
    assert code == 0, said
    assert "bad reference" not in said, said


async def test_a_pick_after_another_moderator_reached_the_term_cap_saves_nothing(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """The category menu of a new term's refused save, picked once another moderator's term
    took the server's last place: refused with the cap named, nothing written, nothing claimed."""
    async with start_bot(store, term_caps=(1, 100_000)):
        refused = await refused_for_category(scene, scene.moderator)
        opened = await scene.fake.slash(
            scene.admin, "term add", {"category": "Fundamentals"}, channel=scene.channel
        )
        await opened.response()
        theirs = {"title": "Qxkalo", "definition": "The admin's own word."}
        added = await (await scene.fake.submit_modal(scene.admin, opened, theirs)).final_message()
        assert added["content"].startswith("Added **Qxkalo**"), added
        said = await pick(scene, scene.moderator, refused, "Retrieval & Context")
        assert not said["content"].startswith("Added"), said
        assert "at most 1 term" in said["content"], said
        assert [t.title for t in await read_terms(store, scene.guild.id)] == ["Qxkalo"]


async def test_the_first_menu_picked_after_edit_again_changed_the_title_saves_one_term(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Refused for its category, Edit again, the title changed, refused again: two menus on
    screen. Picking the first, then the second, saves one term (the text last written: one draft
    a moderator's form), the second pick answering as the save did."""
    first = await refused_for_category(scene, scene.moderator)
    pressed = await scene.fake.click(scene.moderator, first, buttons(first)["Edit again"])
    assert (await pressed.response())["type"] == 9  # the form, with the text kept
    values = {"title": "Qxkalo", "definition": "Renamed before it was ever saved."}
    second = await (await scene.fake.submit_modal(scene.moderator, pressed, values)).final_message()
    assert "Category: choose a category" in second["content"], second
    one = await pick(scene, scene.moderator, first, "Fundamentals")
    two = await pick(scene, scene.moderator, second, "Retrieval & Context")
    terms = await read_terms(store, scene.guild.id)
    assert len(terms) == 1, (terms, one, two)
    assert (
        one["content"]
        == f"Added **{terms[0].title}** in this server's glossary, under **{terms[0].category}**: "
        f"`/define {terms[0].title}`."
    ), one
    assert two["content"] == one["content"], two  # the save's answer again


async def test_two_moderators_picking_for_the_same_new_name_at_once_save_it_once(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    team = scene.guild.add_role("Term team", permissions=1 << 5)  # Manage Server
    helper = scene.fake.add_user("hal")
    scene.guild.add_member(helper, roles=[team])
    mine = await refused_for_category(scene, scene.moderator)
    theirs = await refused_for_category(scene, helper)
    both = await asyncio.gather(
        pick(scene, scene.moderator, mine, "Fundamentals"),
        pick(scene, helper, theirs, "Retrieval & Context"),
    )
    added = [m for m in both if m["content"].startswith("Added **Zorblax**")]
    assert len(added) == 1, both
    [other] = [m for m in both if m is not added[0]]
    assert "“Zorblax” is already a name of" in other["content"], other
    assert len(await read_terms(store, scene.guild.id)) == 1


async def _add_term(scene: Scene, title: str) -> None:
    opened = await scene.fake.slash(
        scene.moderator, "term add", {"category": "Fundamentals"}, channel=scene.channel
    )
    await opened.response()
    values = {"title": title, "definition": f"The made-up {title}."}
    added = await (await scene.fake.submit_modal(scene.moderator, opened, values)).final_message()
    assert added["content"].startswith(f"Added **{title}**"), added


async def _renamed(scene: Scene, term: str, title: str) -> str:
    opened = await scene.fake.slash(
        scene.moderator, "term edit", {"term": term}, channel=scene.channel
    )
    assert (await opened.response())["type"] == 9
    said = await (
        await scene.fake.submit_modal(scene.moderator, opened, {"title": title})
    ).final_message()
    return str(said["content"])


@pytest.mark.parametrize("title", ["the zorbinator", "zorbinator ★", "what is zorbinator"])
async def test_a_term_renamed_in_one_edit_to_what_search_reads_as_anothers_alias_is_refused(
    scene: Scene, bot: GlossaryBot, store: Store, title: str
) -> None:
    """outsider71's read-as refusal through `/term edit`: one term renamed to what search reads
    as another term's alias is refused, naming it; the alias's own term renamed so is saved."""
    await _add_term(scene, "Zorblax")
    await _add_term(scene, "Qxkalo")
    added = await scene.fake.slash(
        scene.moderator,
        "alias add",
        {"alias": "zorbinator", "term": "zorblax"},
        channel=scene.channel,
    )
    assert "zorbinator" in (await added.final_message())["content"]
    said = await _renamed(scene, "qxkalo", title)
    assert said.startswith("Nothing was saved"), said
    assert "zorbinator" in said, said
    assert sorted(t.title for t in await read_terms(store, scene.guild.id)) == ["Qxkalo", "Zorblax"]
    # its own alias, read as its new name, is no other card's: taken
    own = await _renamed(scene, "zorblax", title)
    assert own == f"Saved **{title}** in this server's glossary: `/define {title}`.", own


def test_an_alias_import_of_5000_lines_holds_back_only_the_server_whose_terms_moved(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    database: str,  # noqa: F811  (the fixture imported above)
) -> None:
    """5,000 lines for five servers (1,000 each, their alias cap), interleaved; the bot writes a
    term in server 5 between the import's check and its write, and again before its second check
    (product72 checks a moved server once more): none of server 5's lines is added (one line says
    so), all the others' are; run again, server 5's are added, the others' are "already
    present"."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GLOSSARY_PATHS", "")
    entries = ["rag", "kv-cache", "lora-qlora", "embeddings", "quantization"]
    items = [
        {"guild_id": 5 + i % 5, "alias": f"zq{i:04d}x", "entry_id": entries[i // 5 % 5]}
        for i in range(5_000)
    ]
    file = tmp_path / "aliases.json"
    file.write_text(json.dumps(items), encoding="utf-8")
    real = Store.import_aliases
    written: list[ServerTerm] = []

    async def raced(self: Store, *args: Any, **kwargs: Any) -> Any:
        name = f"Qxkalo{len(written)}"
        written.append(
            ServerTerm(id=name.lower(), title=name, definition="Ours.", category="Fundamentals")
        )
        await change_terms(self, 5, lambda *_: (TermChange(put=(written[-1],)), None), 4242)
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(Store, "import_aliases", raced)
    status = main(["aliases", "import", str(file), "--db", database, "--quiet"])
    said = capsys.readouterr()
    lines = (said.err + said.out).splitlines()
    assert status == 1, lines
    assert len(written) == 2, written  # the first call and product72's second check of guild 5
    assert lines == [
        "guild 5: its terms changed while this file was checked, and again as it was checked "
        "once more (the bot writing them), so 1,000 of its lines were not added: run the import "
        "again",
        "added 4,000, already present 0, refused 1,000",
    ], lines
    monkeypatch.setattr(Store, "import_aliases", real)
    status = main(["aliases", "import", str(file), "--db", database, "--quiet"])
    said = capsys.readouterr()
    assert status == 0, said
    assert (said.err + said.out).splitlines() == ["added 1,000, already present 4,000, refused 0"]
    where = database if "://" in database else Path(database)
    stored = on_store(where, lambda store: store.export_aliases(None))
    assert len(stored) == 5_000


def _sending(tmp_path: Path, names: list[str]) -> list[str]:
    """product71's wrapper running `python -m bot run`, sending itself these signals, one after
    another, as `bot.errors` begins to import."""
    prefix = _signalled(tmp_path, "python -m bot", "SIGNAL", ["run"])
    wrapper = Path(prefix[1])
    sends = "; ".join(f"os.kill(os.getpid(), signal.{name})" for name in names)
    text = wrapper.read_text("utf-8").replace("os.kill(os.getpid(), signal.SIGNAL)", sends)
    wrapper.write_text(text, "utf-8")
    return prefix


@pytest.mark.parametrize(
    "names",
    [
        ["SIGTERM", "SIGHUP", "SIGINT"],
        ["SIGHUP", "SIGHUP", "SIGTERM"],
        ["SIGINT", "SIGTERM"],
        ["SIGTERM", "SIGTERM", "SIGTERM"],
    ],
    ids=["term-hup-int", "hup-hup-term", "int-term", "term-x3"],
)
async def test_several_signals_at_once_as_run_starts_stop_it_once(
    tmp_path: Path, names: list[str]
) -> None:
    """product71 held one signal as `run` starts. Several at once (a supervisor's TERM then
    INT, a reload then a stop): one stop, exit 0 (README: SIGTERM and Ctrl-C stop `run`
    gracefully), nothing printed but the test's line, Discord never reached, no database made."""
    prefix = _sending(tmp_path, names)
    async with FakeDiscord(shard_count=1) as fake:
        bot = BotProcess(fake, tmp_path / "bot.db", cwd=tmp_path, prefix=prefix)
        await bot.start(wait_ready=False)
        status = await bot.exited(within=EXIT_WITHIN)
    assert bot.lines == ["product71: SIGNAL sent as the program starts"], bot.output
    assert status == 0, bot.output
    assert fake.gateway.identify_count == 0
    assert not (tmp_path / "bot.db").exists()


@pytest.mark.parametrize("name", ["sslpassword", "SSLPASSWORD", "sslpass%77ord"])
def test_the_ssl_keys_passphrase_parameter_is_not_shown(tmp_path: Path, name: str) -> None:
    """`?sslpassword=` is the passphrase of the client's SSL key (libpq and asyncpg read it): a
    secret as `?password=` is, shown before in every line naming the URL ("cannot reach the
    database at postgresql://bot@…?sslpassword=…")."""
    url = f"postgresql://bot@127.0.0.1:1/glossary?sslmode=disable&{name}={SECRET}&x=1"
    shown = without_password(url)
    assert SECRET not in shown, shown
    assert shown.endswith("?sslmode=disable&x=1"), shown
    status, said = glossary_bot_here(CLI_ENV, tmp_path, "stats", "--db", url)
    assert status == 1, said
    assert "cannot reach the database at postgresql://bot@127.0.0.1:1/glossary?" in said, said
    assert SECRET not in said, said


@pytest.mark.parametrize("submitted", [False, True], ids=["edit-open", "edit-saved"])
async def test_a_pick_after_an_edit_form_of_another_term_saves_the_new_terms_text(
    scene: Scene, bot: GlossaryBot, store: Store, submitted: bool
) -> None:
    """A new term refused for its category; the moderator then opens `/term edit` of another
    term (and saves it, or leaves the form open); the first menu's pick saves the new term as
    written, in the category picked, and leaves the other term as its edit left it."""
    await _add_term(scene, "Qxkalo")
    refused = await refused_for_category(scene, scene.moderator)
    opened = await scene.fake.slash(
        scene.moderator, "term edit", {"term": "qxkalo"}, channel=scene.channel
    )
    assert (await opened.response())["type"] == 9
    if submitted:
        edit = {"definition": "Qxkalo, edited."}
        saved = await (await scene.fake.submit_modal(scene.moderator, opened, edit)).final_message()
        assert saved["content"].startswith("Saved **Qxkalo**"), saved
    said = await pick(scene, scene.moderator, refused, "Retrieval & Context")
    terms = {t.title: t for t in await read_terms(store, scene.guild.id)}
    assert said["content"].startswith("Added **Zorblax**"), said
    assert terms["Zorblax"].category == "Retrieval & Context"
    assert terms["Zorblax"].definition == ZORBLAX["definition"]
    assert terms["Qxkalo"].definition == ("Qxkalo, edited." if submitted else "The made-up Qxkalo.")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("way", list(WAYS_IN))
def test_version_to_a_full_disk_is_one_line_not_a_traceback(tmp_path: Path, way: str) -> None:
    """`--version > file` on a full disk: every command's output says "cannot write the output"
    in one line (exit 1); `--version` (printed while the arguments are read, before that
    handling) ended in Python's OSError traceback, all three ways in."""
    with Path("/dev/full").open("w") as full:
        done = _run([*_way_in(way), "--version"], tmp_path, stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == 1, done.stderr
    assert done.stderr == (
        "glossary-bot: error: cannot write the output: No space left on device; what was "
        "written is cut short\n"
    ), done.stderr


@pytest.mark.parametrize(
    ("arguments", "status"), [(["--version"], 1), (["check"], 0)], ids=["version", "check"]
)
def test_a_closed_standard_output_is_no_traceback(
    tmp_path: Path, arguments: list[str], status: int
) -> None:
    """Started with its standard output closed (`glossary-bot check >&-` in a cron line): the
    flush that says a full disk met None and ended in AttributeError's traceback. `--version`,
    whose output is its point, says so in one line, exit 1 (product73); `check` exits 0."""
    done = _run(
        ["sh", "-c", 'exec "$@" >&-', "sh", sys.executable, "-m", "bot", *arguments],
        tmp_path,
        stderr=subprocess.PIPE,
    )
    assert done.returncode == status, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
