"""product70 (PLAN.md, "product70"): limits69's and left69's leftovers, through the in-process
bot on the fake Discord (a real SQLite file), each failing on main 75238385 first unless said.
A moderator's form (`send_modal`) and `/term remove`'s confirm send their first response by
Discord's 3 s as the other moderator answers do (`moderators.in_time`), and a first response
given up there gives the use it took back: the moderator saw nothing."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot import metrics
from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons
from tests.discord_app.term_commands import TERM, add_term
from tests.fake_discord import InteractionHandle
from tests.resilience.helpers import warned

from .conftest import Scene
from .test_limits69_discord import FAILING
from .test_outsider69 import import_file
from .test_product70 import MARKDOWN, lines_of
from .test_review69_discord import CALLBACK, HANG, SLOW, said

NOT_SENT = "no first response could be sent within Discord's 3 s"


def _interactions(kind: str, outcome: str) -> float:
    labels = {"kind": kind, "outcome": outcome}
    return metrics.REGISTRY.get_sample_value("glossary_interactions_total", labels) or 0.0


async def _asked_to_remove(scene: Scene) -> dict[str, Any]:
    """`/term remove zorblax`'s question, with its Remove button (it takes no use)."""
    handle = await scene.fake.slash(
        scene.moderator, "term remove", {"term": "zorblax"}, channel=scene.channel
    )
    return await handle.final_message()


async def _lost_to_a_503(scene: Scene, door: str) -> tuple[InteractionHandle, list[str], str]:
    """The door's first response answered 503 twice by Discord (discord.py tries a 503 again 1 s
    and 3 s later, past the 3 s): the interaction, the log lines naming its member and the
    one naming it. The bot runs; the moderator has asked `/term remove zorblax` for the
    "confirm" door."""
    fake = scene.fake
    user = scene.alice if door == "suggest" else scene.moderator
    prompt = await _asked_to_remove(scene) if door == "confirm" else None
    fake.fail_next(*CALLBACK, status=503, times=2)
    mine = f" by {user.id}: "
    async with warned(mine, HANG) as lines:
        if door == "form":
            options = {"category": "Retrieval & Context"}
            handle = await fake.slash(user, "term add", options, channel=scene.channel)
        elif door == "suggest":
            handle = await fake.slash(user, "suggest", {"term": "plimwort"}, channel=scene.channel)
        else:
            assert prompt is not None
            handle = await fake.click(user, prompt, buttons(prompt)["Remove"])
    fake.faults.clear()  # a 503 left if the second try came too late to be made
    await fake.settle()
    about = [r.getMessage() for r in lines if mine in r.getMessage()]
    assert not [r for r in lines if r.levelno >= logging.ERROR], about
    assert len(about) == 1, about
    return handle, about, about[0]


DOORS = {
    "form": ("term add", "form"),  # (the interaction's name in the line, what is lost)
    "suggest": ("suggest", "form"),
    "confirm": ("{'custom_id': 'gb:term-rm:", "removal (nothing was removed)"),
}


@pytest.mark.parametrize("door", list(DOORS))
async def test_a_form_or_confirm_lost_to_a_503_is_given_up_at_the_3_s_and_said(
    scene: Scene, start_bot: StartBot, store: Store, door: str
) -> None:
    """limits69's "Left": a moderator's form (`/term add`), a member's (`/suggest`) and
    `/term remove`'s Remove (its first response takes the button off the question) sent their
    first response straight: Discord answering 503, discord.py tried it again past Discord's
    3 s, to be refused (10062), and the one line said "it came too late". Now each goes
    through `respond_in_time` as the other moderator answers do: given up at the 3 s, nothing
    sent past them, one line saying Discord failed and what was lost; counted `late` once
    (held before for the answers limits69 routed: `report_error` no longer sets it again)."""
    fake = scene.fake
    name, what = DOORS[door]
    kind = {"form": "term add", "suggest": "suggest", "confirm": "component"}[door]
    async with start_bot(store):
        if door == "confirm":
            await add_term(scene)
        late, refused = _interactions(kind, "late"), _interactions(kind, "refused")
        handle, _, line = await _lost_to_a_503(scene, door)
    sent_late = fake.pop_violations()  # a 10062 was one
    assert line.startswith(f"interaction {handle.id} ({name}"), line
    assert f"{NOT_SENT} ({FAILING}); its {what} is lost" in line, line
    assert "too late" not in line, line
    assert not sent_late, sent_late
    assert _interactions(kind, "late") == late + 1
    assert _interactions(kind, "refused") == refused


async def test_a_moderators_use_comes_back_when_the_first_response_is_given_up(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """limits69's "Left": a first response given up at the 3 s (`AnswerLost`) ended the command
    with the use it took kept, though the moderator saw nothing and nothing was written. 1 use
    a window: `/term add`'s form lost to a 503, then the form opens (on main: "going a bit
    fast"), then the use is spent (given back once, not twice); `/term remove`'s Remove lost
    so, then pressed again: removed (on main: "going a bit fast"); `/alias remove`'s
    "thinking…" lost so, then asked again: answered."""
    fake = scene.fake
    async with start_bot(store, cooldown=(1, 3600.0)):
        await _lost_to_a_503(scene, "form")
        opened = await fake.slash(
            scene.moderator, "term add", {"category": "Retrieval & Context"}, channel=scene.channel
        )
        form = await opened.response()
        spent = await said(await fake.slash(scene.moderator, "term add", {}, channel=scene.channel))
        # the form opened is the one Zorblax is added through (the uses are per command)
        submitted = await fake.submit_modal(scene.moderator, opened, TERM)
        added = str((await submitted.final_message())["content"])
        await _lost_to_a_503(scene, "confirm")
        prompt = await _asked_to_remove(scene)
        pressed = await fake.click(scene.moderator, prompt, buttons(prompt)["Remove"])
        [removed] = await pressed.followups(1)
        fake.fail_next(*CALLBACK, status=503, times=2)
        async with warned(NOT_SENT, HANG):
            await fake.slash(
                scene.moderator, "alias remove", {"alias": "blorp"}, channel=scene.channel
            )
        fake.faults.clear()
        again = await said(
            await fake.slash(
                scene.moderator, "alias remove", {"alias": "blorp"}, channel=scene.channel
            )
        )
    assert form["type"] == 9, form  # the form
    assert spent.startswith(SLOW), spent
    assert added.startswith("Added **Zorblax**"), added
    assert removed["content"] == "Removed “Zorblax”.", removed
    assert again.startswith("This server has no alias “blorp”"), again


async def test_term_imports_problems_are_listed_by_line(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """outsider69's "Left": `/term import` listed the file's readers' problems first, then the
    term checks' (lines 19, then 3, 7, 11, 11, 15); now top-down, as `terms import` and
    `check` (test_product70)."""
    async with start_bot(store):
        answer = await import_file(scene, "ours.md", MARKDOWN)
    assert answer.startswith("Nothing was imported: 7 problems"), answer
    assert lines_of(answer, "• line ") == [3, 7, 11, 11, 15, 15, 19], answer
