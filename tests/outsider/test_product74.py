"""The ninth session's product leftovers (tests/outsider/PLAN.md, "product74"): a live folder that
some file systems report with no links, quoted markup, and the term vectors' cache among
processes starting at once."""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from bot.heartbeat import check_heartbeat
from bot.reach import deleted_folder
from bot.storage import Store
from bot.storage.sqlite.errors import cannot_open
from tests.fake_discord import FakeUser

from .conftest import Scene


def linkless(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """`folder` stat()ed with no links, as some FUSE and overlay file systems report a live
    folder (st_nlink 0); every other path as it is."""
    real = Path.stat
    where = folder.stat()

    def stat(self: Path, *, follow_symlinks: bool = True) -> os.stat_result:
        found = real(self, follow_symlinks=follow_symlinks)
        if os.path.samestat(found, where):
            fields = list(found)
            fields[3] = 0  # st_nlink
            return os.stat_result(fields)
        return found

    monkeypatch.setattr(Path, "stat", stat)


def test_a_live_folder_reported_with_no_links_is_not_said_deleted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`deleted_folder` read st_nlink == 0 alone: on a file system that reports no links for a
    live folder, the database's and heartbeat's folder were said deleted ("restart the bot with
    the folder in place") while they worked. Failed before: True. A folder really deleted
    under the process is still told (its working folder here, as a container's /data)."""
    live = tmp_path / "data"
    live.mkdir()
    (live / "g.db").write_bytes(b"")
    linkless(monkeypatch, live)
    assert live.stat().st_nlink == 0  # the simulation holds
    assert not deleted_folder(live)
    assert [p.name for p in live.iterdir()] == ["g.db"]  # the probe left nothing behind
    assert "deleted" not in str(cannot_open(live / "g.db"))
    healthy, told = check_heartbeat(live / "glossary-bot.heartbeat")
    assert not healthy
    assert "(starting, or never connected)" in told, told

    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    shutil.rmtree(gone)
    assert deleted_folder(Path())
    healthy, told = check_heartbeat(Path("glossary-bot.heartbeat"))
    assert "its folder . was deleted while the bot ran in it" in told, told


def test_a_linkless_folder_that_refuses_files_is_not_said_deleted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No links, and a file refused for another reason than "no such folder" (a read-only file
    system, simulated: the tests run as root, whom modes do not stop): not said deleted, which
    only a restart would mend."""
    live = tmp_path / "data"
    live.mkdir()
    linkless(monkeypatch, live)

    def read_only(*args: object, **kwargs: object) -> tuple[int, str]:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    assert not deleted_folder(live)


# -- 4. what a member typed, quoted back, shows as typed --


async def test_a_suggestion_of_a_question_s_wording_in_markup_says_how_search_reads_it(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """`/suggest # what is` quoted the heading mark into its reading ("reads as “# what
    is”", mend73's "Noticed"), where "WHAT IS??" is told search reads "what is"; and a name
    in Markdown came back rendered (`/suggest **what** is`: "what" in bold). Failed before:
    no "reads as “what is”", and the asterisks raw."""
    for asked in ("# what is", "> what is", "WHAT IS??"):
        said = await said_to(scene, scene.alice, "suggest", {"term": asked})
        assert f"(“{asked}” reads as “what is”)" in said, (asked, said)
        assert said.endswith("Nothing was queued."), said
    said = await said_to(scene, scene.alice, "suggest", {"term": "**what** is"})
    assert said.startswith("“\\*\\*what\\*\\* is” is only the wording of a question"), said
    assert "(“\\*\\*what\\*\\* is” reads as “what is”)" in said, said
    assert await store.open_suggestions(scene.guild.id) == []


async def test_an_alias_refusal_shows_the_alias_as_typed_and_the_title_in_bold(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """`/alias add`'s refusals quoted the alias raw: "_what_ is" came back in italics,
    "**rag**" in bold beside the bold title it clashed with. Failed before: unescaped."""
    said = await said_to(
        scene, scene.moderator, "alias add", {"alias": "_what_ is", "term": "lora"}
    )
    assert said.startswith("“\\_what\\_ is” is only the wording of a question"), said
    said = await said_to(scene, scene.moderator, "alias add", {"alias": "**rag**", "term": "lora"})
    assert said.startswith("“\\*\\*rag\\*\\*” (search reads it as “rag”) already names **"), said
    assert await store.aliases(scene.guild.id) == {}


async def said_to(scene: Scene, user: FakeUser, command: str, options: dict[str, str]) -> str:
    handle = await scene.fake.slash(user, command, options, channel=scene.channel)
    return str((await handle.final_message())["content"])
