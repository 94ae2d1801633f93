"""Outsider round 37 (outsider54): a self-hoster, a glossary maintainer and a member, as tests.

Plan and findings: tests/outsider/PLAN.md, "Outsider round 37 (outsider54)"."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.cards.embed import card_layout
from bot.discord_app.app import GlossaryBot
from bot.glossary import inspect_glossary
from bot.glossary.links import without_links
from bot.settings import comments_read_off, load_settings
from bot.storage import Store
from tests.discord_app.helpers import embed_of
from tests.storage.full_disk import FullDisk

from .conftest import Scene
from .test_round21 import _run
from .test_round29 import _next_answer


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("/data/glossary-bot.db  # the main database", "/data/glossary-bot.db"),
        ('"/data/glossary-bot.db" # quoted, then a comment', "/data/glossary-bot.db"),
        ("/data/glossary-bot.db\t# a tab before it", "/data/glossary-bot.db"),
        # As python-dotenv reads `.env`: a '#' inside quotes, or with no space before it, is
        # the value's own.
        ('"/data/my #1.db"', "/data/my #1.db"),
        ("/data/db#1.db", "/data/db#1.db"),
    ],
)
@pytest.mark.usefixtures("no_dotenv")
def test_a_comment_after_a_value_in_an_env_file_is_read_as_dotenv_reads_it(
    written: str, read: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Self-hoster: `DATABASE_PATH=/data/glossary-bot.db  # the main database` in the env file.
    `.env` (python-dotenv: `make run`, compose) reads the value before the comment, but `podman
    run --env-file` passes the line whole, so the container made a new, empty database named
    "glossary-bot.db  # the main database" beside the one it had served: the server's aliases,
    terms and counts gone from its answers, without a word. The environment's value is now read
    as `.env` reads it, as the README says of quotes and spaces."""
    monkeypatch.setenv("DATABASE_PATH", written)
    assert load_settings().database_path == Path(read)


@pytest.mark.usefixtures("no_dotenv")
def test_a_comment_after_a_number_or_a_token_is_read_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """`COOLDOWN_USES=5 # five` stopped the container ("is not valid: expected a whole number"),
    and `DISCORD_TOKEN="…" # my bot` with "a space or line break inside the token", though the
    same lines in `.env` serve; a value that is only a comment (`DEV_GUILD_ID= # later`) is
    empty there, so the default."""
    monkeypatch.setenv("COOLDOWN_USES", "5 # five")
    monkeypatch.setenv("DISCORD_TOKEN", '"abc.def.ghi" # my bot')
    monkeypatch.setenv("DEV_GUILD_ID", " # later")
    settings = load_settings()
    assert settings.cooldown_uses == 5
    assert settings.discord_token is not None
    assert settings.discord_token.get_secret_value() == "abc.def.ghi"
    assert settings.dev_guild_id is None


@pytest.mark.usefixtures("no_dotenv")
def test_which_settings_had_a_comment_read_off_is_said(monkeypatch: pytest.MonkeyPatch) -> None:
    """A path of the environment's own may hold " #" (a shell's `export`): what was read off is
    said, naming the setting and the value read, never a token's text; nothing is said of a
    value without one."""
    monkeypatch.setenv("DATABASE_PATH", "/data/g.db  # the main database")
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def.ghi # my bot")
    monkeypatch.setenv("LOG_LEVEL", "INFO")
    lines = comments_read_off()
    assert len(lines) == 2, lines
    path_line = next(line for line in lines if line.startswith("DATABASE_PATH"))
    assert "'/data/g.db'" in path_line, path_line
    assert "# the main database" in path_line, path_line
    assert "quote" in path_line, path_line  # how to keep a '#' that is the value's own
    token_line = next(line for line in lines if line.startswith("DISCORD_TOKEN"))
    assert "abc" not in token_line, token_line
    assert "my bot" not in token_line, token_line


def test_run_says_a_comment_read_off_in_one_warning(tmp_path: Path) -> None:
    """`run` says it at start, one WARNING line (here it then stops: no token). A process of
    its own (1-2 s): `run` sets signal handlers, which only a main thread may."""
    done = _run(tmp_path, DATABASE_PATH=f"{tmp_path / 'g.db'}  # the main database")
    assert done.returncode == 2, done
    warned = [line for line in done.stderr.splitlines() if "WARNING" in line]
    assert len(warned) == 1, done.stderr
    assert "DATABASE_PATH" in warned[0], warned
    assert "comment" in warned[0], warned


async def test_a_full_disk_keeps_health_red_and_is_said_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Self-hoster: the data volume on a small tmpfs, filled. README (Health): connected but
    unable to write, `health` answers unhealthy, "the database or disk is full". Seen: `health`
    healthy throughout, and the log two lines a second for as long as it lasted, "cannot write
    the database …: the database or disk is full" then "… takes writes again": the health
    check's write changes no row and needs no room, so it passed, and ended the failure the
    count flush met again a second later. A write that needs no room says nothing of room: the
    failure stands, said once, until a write that needed it commits."""
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await Store.open(tmp_path / "g.db", flush_interval=None)
    try:
        store.record_lookup(1, "seed")
        assert await store.flush()
        disk = await FullDisk.of(store)
        await disk.fill()
        for i in range(3000):
            store.record_lookup(1, f"a-rather-long-entry-identifier-{i}")
        for _ in range(3):  # the flush retried, the health check between its tries
            assert not await store.flush()
            why = await store.why_not_writable()
            assert why is not None
            assert "full" in why
            assert not await store.can_write()  # the metrics' gauge
        said = [
            f"{r.levelname} {r.getMessage()}" for r in caplog.records if "database" in r.message
        ]
        assert len([line for line in said if line.startswith("ERROR")]) == 1, said
        assert not [line for line in said if "takes writes again" in line], said

        await disk.free()  # room again
        assert await store.flush()
        assert await store.why_not_writable() is None
        said = [r.getMessage() for r in caplog.records if "takes writes again" in r.message]
        assert len(said) == 1, said
    finally:
        await store.close()


def _entry(entry_id: str, title: str, related: list[str] | None = None) -> str:
    listed = f"related = {related!r}\n".replace("'", '"') if related else ""
    return (
        f'[[entries]]\nid = "{entry_id}"\ntitle = "{title}"\ncategory = "Fundamentals"\n'
        f'definition = "A made-up thing."\n{listed}\n'
    )


def test_check_says_which_related_terms_a_card_cannot_offer(tmp_path: Path) -> None:
    """Glossary maintainer: an entry with 40 related ids passed `check` without a word, and its
    card offered 35 of them (ten buttons and a menu of 25, Discord's most): the last five no
    member could open from it. `check` now says so, naming them, as a warning (the card is
    right for the others)."""
    related = [f"rel-{n:02d}" for n in range(40)]
    text = _entry("hub", "Hub Thing", related) + "".join(
        _entry(r, f"Related Thing {r[-2:]}") for r in related
    )
    (tmp_path / "mine.toml").write_text(text, "utf-8")
    glossary, problems = inspect_glossary([tmp_path / "mine.toml"])
    said = [p for p in problems if p.entry == "hub"]
    assert [p.severity for p in said] == ["warning"], said
    assert "40 related" in said[0].message, said[0].message
    assert "rel-35" in said[0].message, said[0].message
    assert "rel-39" in said[0].message, said[0].message
    assert "rel-34" not in said[0].message, said[0].message
    layout = card_layout(glossary["hub"], glossary)
    offered = [e.id for e in (*layout.related_buttons, *layout.related_select)]
    assert offered == related[:35]  # what the warning says: the first 35 are offered


@pytest.mark.parametrize(
    "text", ["rag <https://example.com/a>", "<https://example.com/a> rag", "<https://x>rag"]
)
def test_a_link_in_discords_angle_brackets_is_blanked_whole(text: str) -> None:
    """Member: `<https://…>` is how Discord's members post a link without its preview. Its "<"
    stayed behind when the words beside it were read without the link, so "rag" was read as
    "rag <" (below)."""
    read = without_links(text)
    assert len(read) == len(text)  # offsets stay those of the text
    assert read.split() == ["rag"], read


async def test_a_mention_with_a_link_in_angle_brackets_gets_the_terms_card(
    scene: Scene, bot: GlossaryBot
) -> None:
    """README: "A term asked with a link (`@Glossary rag https://discord.com/channels/…`) opens
    the card its words open without the link". With the link in angle brackets, as members post
    one without its preview, it answered "Did you mean one of these for “rag
    <https[:]//example[.]com>”?" (RAG offered, no card); `/define` and `glossary-bot search` the
    same."""
    me = scene.fake.bot.mention
    for said in (f"{me} rag <https://example.com/a>", f"{me} <https://example.com/a> rag"):
        asked = await scene.fake.user_message(scene.alice, scene.channel, said)
        replied_to, answer = await _next_answer(scene)
        assert replied_to == asked["id"], answer
        assert answer["embeds"], (said, answer["content"])
        assert embed_of(answer)["title"] == "Retrieval-Augmented Generation (RAG)", answer
