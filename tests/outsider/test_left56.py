"""left56 (PLAN.md, "Leftovers (left56)"): leftovers of left54, left55, review62 and tidy54;
each test failing on main d8c5eaf6 first."""

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


async def test_hups_waiting_on_a_long_reload_fold_into_one_of_the_newest_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A maintainer edits files during a long reload and sends SIGHUP after each edit (three):
    each waited its turn and was a full reload of its own, three more of minutes each. Now
    the ones waiting fold into one, which reads the files as the last edit left them."""
    terms = tmp_path / "terms.toml"
    terms.write_text(ENTRY.format(id="vllm", title="vLLM"), "utf-8")
    state = BotState(load_glossary([tmp_path]), None, [tmp_path])
    indexed = BotState._indexed
    loads: list[int] = []
    first_under_way, let_first_end = threading.Event(), threading.Event()

    def held_first(glossary: Glossary) -> Indexed:  # the first reload's embedding, held
        loads.append(len(glossary))
        if len(loads) == 1:
            first_under_way.set()
            let_first_end.wait()
        return indexed(glossary)

    monkeypatch.setattr(BotState, "_indexed", staticmethod(held_first))
    caplog.set_level(logging.INFO, logger="bot.discord_app.state")
    try:
        first = asyncio.create_task(state.reload_off_loop())
        await asyncio.to_thread(first_under_way.wait)
        waiting = []
        for n in range(2, 5):  # an edit, a HUP; three times
            entries = [ENTRY.format(id=f"term{i}", title=f"Term {i}") for i in range(n)]
            terms.write_text("".join(entries), "utf-8")
            waiting.append(asyncio.create_task(state.reload_off_loop()))
        let_first_end.set()  # the HUPs' tasks start before the first's end is seen
        said = await asyncio.gather(first, *waiting)
    finally:
        let_first_end.set()
    assert loads == [1, 4], loads  # the first, then one of the newest files
    assert said == ["reloaded 1 entries", *["reloaded 4 entries"] * 3], said
    assert len(state.glossary) == 4


def test_a_refused_reload_quotes_a_huge_id_cut(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A reload refused for an entry whose 100,000-character id has a problem, and a related
    id as long that names no entry: the ERROR quoted both whole, a 200 KB line. Now each is
    cut as a user's own words are cut when the bot repeats them, the line still naming file,
    line, entry and what is wrong."""
    (tmp_path / "terms.toml").write_text(ENTRY.format(id="vllm", title="vLLM"), "utf-8")
    state = BotState(load_glossary([tmp_path]), None, [tmp_path])
    huge_id, huge_related = "x" * 100_000, "y" * 100_000
    bad = ENTRY.format(id=huge_id, title="Huge") + f'related = ["{huge_related}"]\n'
    bad += ENTRY.format(id="odd", title="Odd") + "unknown_key_" + "k" * 100_000 + " = 1\n"
    (tmp_path / "terms.toml").write_text(bad, "utf-8")
    caplog.set_level(logging.ERROR, logger="bot.discord_app.state")
    said = state.reload()
    assert said.startswith("reload refused"), said[:200]
    (line,) = [r.getMessage() for r in caplog.records if "reload refused" in r.getMessage()]
    assert len(line) < 1_000, line[:2_000]
    for said_there in ("terms.toml:", "names no entry", "unknown key", "'yyyy", "[xxxx", "[…]"):
        assert said_there in line, line


def test_sizes_are_said_one_way_to_users_and_operators(tmp_path: Path) -> None:
    """A size was worded three ways: an import's refusal "2.2 MiB" (one decimal), the text cap
    "2.00 MiB" (two), a file past the cap "1.0 MiB ... (1,048,576 bytes)", a backup "2.3 MB"
    (decimal megabytes). Now one wording, `said_size`: MiB to two decimals without trailing
    zeros, whole KiB, bytes where two sizes side by side would read alike."""
    from bot.glossary.interchange import parse_import
    from bot.glossary.server_terms import ServerTerm, check_caps
    from bot.term_import import too_big

    mib = 2**20
    (tmp_path / "terms.toml").write_text(ENTRY.format(id="vllm", title="vLLM"), "utf-8")
    bundled = load_glossary([tmp_path])
    (problem,) = parse_import(b"x" * (50 * mib), "a.toml", bundled, max_bytes=mib)[1]
    assert problem.message == "the file is 50 MiB; at most 1 MiB.", problem.message
    assert too_big("a.toml", 50 * mib, mib) == "a.toml is 50 MiB; an import is at most 1 MiB"
    assert too_big("a.toml", mib + 1, mib) == (
        "a.toml is 1,048,577 bytes; an import is at most 1,048,576 bytes"
    )
    terms = [
        ServerTerm(id=f"t{i}", title=f"T{i}", category="Fundamentals", definition="d" * 4000)
        for i in range(600)
    ]
    (over,) = check_caps(terms, max_text_bytes=2 * mib)
    assert over.message.startswith(
        "a server's terms can hold at most 2 MiB of text (2.3 MiB with"
    ), over.message


def test_past_a_lowered_cap_is_said_in_one_sentence(tmp_path: Path) -> None:
    """A server past a lowered cap of terms heard two sentences for one rule: an import "may
    keep them but not add to them", `/term add` "This server is past it already (3 terms): a
    change that keeps or lowers that is saved, one that adds to it is not." Now the second,
    for both."""
    from bot.glossary.interchange import parse_import
    from bot.glossary.server_terms import ServerTerm, check_caps

    (tmp_path / "terms.toml").write_text(ENTRY.format(id="vllm", title="vLLM"), "utf-8")
    bundled = load_glossary([tmp_path])
    four = "".join(ENTRY.format(id=f"zorb{i}", title=f"Zorb {i}") for i in range(4)).encode()
    (imported,) = parse_import(four, "a.toml", bundled, max_terms=2, held=3)[1]
    terms = [
        ServerTerm(id=f"z{i}", title=f"Z{i}", category="Fundamentals", definition="d")
        for i in range(4)
    ]
    (added,) = check_caps(terms, max_terms=2, before=terms[:3])
    past = " This server is past it already (3 terms): a change that keeps or lowers that is "
    assert past in imported.message, imported.message
    assert past in added.message, added.message


def test_a_name_wholly_in_another_script_is_its_own_name_to_every_check() -> None:
    """`like` (a term's or alias's names) refused an all-Greek "ΤΟΡ" as TOP's look-alike, and
    a Greek "ρ" (Spearman's rho) as "p"'s, where `letters_alike` and `same_name` (a waiting
    suggestion) take a name wholly in another script as its own. One rule now, theirs: a Greek
    server's moderator writes Greek words and symbols, which share no name with a Latin one;
    a name mixing scripts ("TOΡ" with a Greek Ρ) is still a look-alike everywhere."""
    from bot.glossary.lookalikes import LookAlikes, letters_alike, same_name

    names: LookAlikes[str] = LookAlikes()
    names.add("top-p", ["TOP", "p"])
    for greek in ("ΤΟΡ", "ρ"):
        assert names.like(greek) is None, greek
        assert not same_name(greek, "TOP")
        assert not same_name(greek, "p")
        assert letters_alike({"top": 1, "p": 2})(greek) is None
    assert names.like("TOΡ") == ("top-p", "TOP")  # Latin with a Greek Ρ
    assert same_name("TOΡ", "TOP")
