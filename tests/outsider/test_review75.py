"""review75 (tests/outsider/PLAN.md, "review75"): attacks on the last two sessions' features as
an outsider makes them."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.replies import TERMS_UNREAD
from bot.glossary.check import reference_problem
from bot.storage import Store
from bot.term_storage import TermChange, change_terms
from tests.discord_app.helpers import buttons, download_all, is_ephemeral
from tests.discord_app.term_commands import made_up, stored_now
from tests.fake_discord.command_permissions import override

from .conftest import Scene
from .test_product70 import _imported
from .test_review58 import indexing_held  # noqa: F401  (the fixture)
from .test_review71 import ONE_ENTRY

# -- A reference with userinfo that urlparse cannot read: said without its password --


@pytest.mark.parametrize(
    "reference",
    [
        "https://admin:s3cret@[wiki.example.org/page",
        "https://admin:s3cret@wiki.example.org]/page",
        "https://admin:s3cret\uff20@wiki.example.org/page",
        "https://admin:s3cret\uff20wiki.example.org/page",
    ],
    ids=["bracket-open", "bracket-closed", "nfkc-at-and-at", "nfkc-at"],
)
def test_a_reference_with_userinfo_urlparse_refuses_is_said_without_its_password(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    reference: str,
) -> None:
    """mend74 refuses a reference with userinfo without quoting it (it may hold a password);
    one urlparse raises on (a bracket left open, a character NFKC reads as "@" or ":") fell
    through to "bad reference URL 'https://admin:s3cret@[…'", the password quoted, in `terms
    import`, `check`, /term import's answer and its report file. Failed before."""
    assert "s3cret" not in (reference_problem(reference) or "s3cret")
    monkeypatch.chdir(tmp_path)
    code, said = _imported(
        tmp_path, capsys, "ours.toml", ONE_ENTRY + f'reference = "{reference}"\n'
    )
    assert code == 1, said
    assert (
        "Reference: reference URL has a user name and a password (“name:password@”) before its host"
        in said
    ), said
    assert "s3cret" not in said, said


# -- /alias list's Download all, pressed after the moderator lost /alias, and twice at once --


async def _listing_of_120(scene: Scene, store: Store) -> dict[str, Any]:
    for n in range(120):
        await store.add_alias(scene.guild.id, f"kv stash {n:03}", f"kv stash {n:03}", "kv-cache", 1)
    handle = await scene.fake.slash(scene.moderator, "alias list", {}, channel=scene.channel)
    listing = await handle.final_message()
    assert listing["embeds"][0]["title"] == "120 aliases in this server", listing
    return listing


async def test_download_all_pressed_after_losing_alias_sends_no_file(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """A listing's **Download all** asks again, as Discord would of `/alias`: a moderator an
    admin has since kept from `/alias` (an Integrations override) gets no file. Held (no test
    said it before)."""
    listing = await _listing_of_120(scene, store)
    await scene.fake.set_command_permissions(
        scene.guild, "alias", [override(scene.moderator, False)]
    )
    bot.command_access.forget(scene.guild.id)  # as after any change Discord reports
    clicked = await scene.fake.click(scene.moderator, listing, buttons(listing)["Download all"])
    answer = await clicked.final_message()
    assert answer["content"] == "You can't list this server's aliases any more.", answer
    assert not answer.get("attachments"), answer
    assert is_ephemeral(answer)


async def test_download_all_pressed_twice_at_once_sends_the_whole_file_twice(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Two presses at once (a double click, two devices): each its own whole file. Held."""
    listing = await _listing_of_120(scene, store)
    first, second = await asyncio.gather(
        download_all(scene.fake, scene.moderator, listing),
        download_all(scene.fake, scene.moderator, listing),
    )
    assert first == second
    assert len(first.decode().splitlines()) == 120


@pytest.mark.parametrize("when", ["read again", "removed"])
async def test_download_all_of_a_server_term_says_why_it_sends_none(
    scene: Scene,
    bot: GlossaryBot,
    store: Store,
    indexing_held: threading.Event,  # noqa: F811
    when: str,
) -> None:
    """`/alias list term:` of one of the server's own terms, its **Download all** pressed while
    the server is read again (let go, idle, a restart): it said "That term is no longer in the
    glossary." of a term that is there, only not read yet (review59 made the listing itself
    say TERMS_UNREAD). Now it says so; and once the term is removed, it says it is no longer in
    this server's glossary, as a card's button to it does (left74). Failed before (both)."""
    indexing_held.set()  # not held until the server is let go
    zorb = made_up("zorb", title="Zorb Engine")
    await stored_now(scene, bot, store, zorb)
    for n in range(120):
        await store.add_alias(scene.guild.id, f"zorbish {n:03}", f"zorbish {n:03}", "zorb", 1)
    await bot.state.servers.reload(scene.guild.id)
    handle = await scene.fake.slash(
        scene.moderator, "alias list", {"term": "zorb"}, channel=scene.channel
    )
    listing = await handle.final_message()
    assert listing["embeds"][0]["title"] == "120 aliases of Zorb Engine", listing
    if when == "removed":
        gone = TermChange(
            remove=("zorb",), drop_aliases=tuple(f"zorbish {n:03}" for n in range(120))
        )
        await change_terms(store, scene.guild.id, lambda *_: (gone, None), 1)
        await bot.state.servers.reload(scene.guild.id)
    else:
        bot.state.servers.forget(scene.guild.id)  # what letting it go does
        indexing_held.clear()
    clicked = await scene.fake.click(scene.moderator, listing, buttons(listing)["Download all"])
    answer = await clicked.final_message()
    indexing_held.set()
    expected = (
        TERMS_UNREAD
        if when == "read again"
        else "That entry is no longer in this server's glossary."
    )
    assert answer["content"] == expected, answer
    assert not answer.get("attachments"), answer
