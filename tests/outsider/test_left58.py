"""left58 (PLAN.md, "Leftovers (left58)"): leftovers of left56, review63 and left57 that need
no Discord; each test failing on main 9d665695 first."""

from __future__ import annotations

import asyncio
import logging
import threading
from pathlib import Path

import pytest

from bot.discord_app.state import BotState, Indexed
from bot.glossary import Glossary, load_glossary

ENTRY = """
[[entries]]
id = "{id}"
title = "{title}"
category = "Fundamentals"
definition = "A definition of {title}."
"""


async def test_a_burst_of_hups_during_a_reload_is_one_line_saying_how_many(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A script sending 100 SIGHUPs during a long reload: one reload followed, but the log had
    100 lines "glossary reload asked while one is under way: it follows it". Now that line for
    the burst's first HUP only (heard at once), and one as its reload starts saying how many
    it is for; a burst during that reload is two lines of its own."""
    terms = tmp_path / "terms.toml"
    terms.write_text(ENTRY.format(id="vllm", title="vLLM"), "utf-8")
    state = BotState(load_glossary([tmp_path]), None, [tmp_path])
    indexed = BotState._indexed
    loads: list[int] = []
    under_way = [threading.Event(), threading.Event()]
    let_end = [threading.Event(), threading.Event()]

    def held(glossary: Glossary) -> Indexed:  # the first two reloads' embedding, held
        loads.append(len(glossary))
        if len(loads) <= 2:
            under_way[len(loads) - 1].set()
            let_end[len(loads) - 1].wait()
        return indexed(glossary)

    monkeypatch.setattr(BotState, "_indexed", staticmethod(held))
    caplog.set_level(logging.INFO, logger="bot.discord_app.state")
    try:
        tasks = [asyncio.create_task(state.reload_off_loop())]
        await asyncio.to_thread(under_way[0].wait)
        terms.write_text(ENTRY.format(id="a", title="A") + ENTRY.format(id="b", title="B"))
        tasks += [asyncio.create_task(state.reload_off_loop()) for _ in range(100)]
        let_end[0].set()
        await asyncio.to_thread(under_way[1].wait)  # the burst's reload, held in turn
        tasks += [asyncio.create_task(state.reload_off_loop()) for _ in range(3)]
        let_end[1].set()
        said = await asyncio.gather(*tasks)
    finally:
        for event in let_end:
            event.set()
    assert loads == [1, 2, 2], loads
    assert said == ["reloaded 1 entries", *["reloaded 2 entries"] * 103], set(said)
    lines = [r.getMessage() for r in caplog.records if "under way" in r.getMessage()]
    heard = "glossary reload asked while one is under way: it follows it"
    assert lines == [
        heard,  # at once, for the burst's first HUP
        "glossary reload: 100 asked while the last one was under way, one reload for them all, "
        "reading the files as they are now",
        heard,
        "glossary reload: 3 asked while the last one was under way, one reload for them all, "
        "reading the files as they are now",
    ], lines


@pytest.mark.parametrize(
    "head",
    ["Zorbledger shard ", "ゾルブラックス", "नमस्ते दुनिया ", "👨\u200d👩\u200d👧 family ", "x"],
)
@pytest.mark.parametrize("limit", [100, 80, 25])
def test_a_long_title_is_cut_keeping_its_start_and_its_end(head: str, limit: int) -> None:
    """`fit_name`: two titles that differ only at the end, cut for a message, a button or a
    choice, stay apart; within the limit, whole letters at both cuts."""
    from bot.glossary.letters import MIDDLE_MARKER, fit_name, whole_letters_cut

    cuts = []
    for end in ("Alpha", "Omega"):
        title = (head * 300)[:250] + " " + end
        cut = fit_name(title, limit)
        assert len(cut) <= limit, cut
        start, _, tail = cut.partition(MIDDLE_MARKER)
        assert title.startswith(start), cut
        assert whole_letters_cut(title, len(start)) == len(start), cut
        assert title.endswith(tail), cut
        assert tail.endswith(end), cut
        cuts.append(cut)
    assert cuts[0] != cuts[1], cuts
    assert fit_name("Zorblax", limit) == "Zorblax"
