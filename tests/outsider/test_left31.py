"""Leftovers of round 25 and review29 (task left31, PLAN.md "Leftovers of round 25 (left31)").

Through the real bot (discord.py) against the fake Discord on real SQLite files, and the command
line in a process of its own."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from bot.cards.chart import LABEL_SIZE, MAX_LABEL_WIDTH, SIZE, _terms_chart, text_width
from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import define, embed_of
from tests.discord_app.term_commands import TERM, open_add, run_import, submit
from tests.resilience.botproc import CLI_ENV, glossary_bot_waited

from .conftest import Scene

DATA = Path(__file__).resolve().parents[2] / "data"


def _entry(term_id: str, title: str, extra: str = "") -> str:
    return (
        f'[[entries]]\nid = "{term_id}"\ntitle = "{title}"\ncategory = "Fundamentals"\n'
        f'definition = "A made-up thing of the raid called {title}."\n{extra}\n'
    )


async def test_a_server_term_named_as_the_other_number_of_another_server_term_is_refused(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Round 25 T3 (noticed) and review29's left: a file holding "Zorb Engine" and "Zorb
    Engines" (or an other name "blap units" beside a term "Blap Unit") was imported as two
    terms, though search reads the two alike; so was a `/term add` of "Zorb Engines" beside a
    stored "Zorb Engine". Now refused, naming the other term, as for a bundled name."""
    fake = scene.fake
    both = _entry("zorb-engine", "Zorb Engine") + _entry("zorb-engines", "Zorb Engines")
    both += _entry("blap-unit", "Blap Unit") + _entry("qux", "Qux", 'aliases = ["blap units"]')
    answer = await run_import(scene, fake.add_attachment("both.toml", both))
    assert answer.startswith("Nothing was imported: 2 problems"), answer
    assert (
        # left57: the file's own term, by its line (the server has none yet).
        "“Zorb Engines” is read by search as “Zorb Engine”, a name of “Zorb Engine” on line 2 "
        "of this file"
    ) in answer, answer
    assert "“blap units” is read by search as “Blap Unit”" in answer, answer
    # A term's own other number stays allowed, and one term stored alone is imported.
    own = _entry("zorb-engine", "Zorb Engine", 'aliases = ["zorb engines"]')
    answer = await run_import(scene, fake.add_attachment("one.toml", own))
    assert answer.startswith("Imported: 1 added"), answer
    opened = await open_add(scene, scene.moderator, category="Fundamentals")
    refused = await submit(
        scene, scene.moderator, opened, {**TERM, "title": "Zorb Engined", "other_names": ""}
    )
    assert refused["content"].startswith("Added"), refused  # not another number: a term
    opened = await open_add(scene, scene.moderator, category="Fundamentals")
    refused = await submit(
        scene, scene.moderator, opened, {**TERM, "title": "Blap Units", "other_names": ""}
    )
    assert refused["content"].startswith("Added"), refused
    opened = await open_add(scene, scene.moderator, category="Fundamentals")
    refused = await submit(
        scene, scene.moderator, opened, {**TERM, "title": "Blap Unit", "other_names": ""}
    )
    assert "“Blap Unit” is read by search as “Blap Units”" in refused["content"], refused
    _, card = await define(fake, scene.alice, "zorb engines", scene.channel)
    assert embed_of(card)["title"] == "Zorb Engine", card


async def test_a_related_term_the_import_removes_is_said_to_be_removed(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Round 25 T7 (noticed): a file whose term is related to a server term the same file
    leaves out (so the import removes it) was refused with "no term of this server … is called
    “Blap Unit”": true after the import, puzzling before it, while the term is on the server.
    Now the error says the import removes it."""
    fake = scene.fake
    first = _entry("blap-unit", "Blap Unit") + _entry("zorb", "Zorb")
    answer = await run_import(scene, fake.add_attachment("first.toml", first))
    assert answer.startswith("Imported: 2 added"), answer
    second = _entry("zorb", "Zorb", 'related = ["Blap Unit", "Nonesuch"]')
    answer = await run_import(scene, fake.add_attachment("second.toml", second))
    assert answer.startswith("Nothing was imported"), answer
    assert (
        "“Blap Unit” is a term of this server that this import removes (it is not in the file)"
    ) in answer, answer
    assert "no term of this server or the bundled glossary is called “Nonesuch”" in answer
    assert "called “Blap Unit”" not in answer, answer


def test_check_of_one_folder_given_twice_says_so_once(tmp_path: Path) -> None:
    """Round 25 C4 (noticed): `check data data` reported each of the 299 kinds as "a second
    kind (the first in data/kinds/kinds.toml)", the file it was in. Now one warning names the
    folder given twice; it is read once."""
    shutil.copytree(DATA, tmp_path / "data")
    status, output = glossary_bot_waited(CLI_ENV, tmp_path, "check", "data", "data")
    assert status == 0, output
    assert "second kind" not in output, output[:2000]
    lines = [line for line in output.splitlines() if "given twice" in line]
    assert lines == ["data: warning: the folder data is given twice: read once"], output[:2000]
    same = str(tmp_path / "data")  # the same folder spelled otherwise
    status, output = glossary_bot_waited(CLI_ENV, tmp_path, "check", "data", same)
    assert status == 0, output[:2000]
    assert "second kind" not in output, output[:2000]
    lines = [line for line in output.splitlines() if "given twice" in line]
    assert lines == [f"{same}: warning: the folder data is given twice: read once"], output


def test_a_title_of_spaces_alone_is_one_error(tmp_path: Path) -> None:
    """Round 25 C3: an entry titled "   " gave "empty title" and "empty name '   '": two lines
    for one slip. Now one; a name that is empty only once punctuation is gone is still said."""
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "sources.toml").write_text(
        '[[sources]]\nkey = "mine"\nname = "Mine"\nfile = "mine.toml"\nformat = "curated-toml"\n',
        encoding="utf-8",
    )
    (folder / "mine.toml").write_text(
        _entry("blank", "   ") + _entry("dots", "...") + _entry("fine", "Fine"), encoding="utf-8"
    )
    status, output = glossary_bot_waited(CLI_ENV, tmp_path, "check", "-q", "data")
    assert status == 1, output
    blank = [line for line in output.splitlines() if "blank" in line]
    assert len(blank) == 1, output
    assert "empty title" in blank[0], output
    assert "empty name '...'" in output, output


def test_a_chart_label_of_wide_letters_fits_the_panel() -> None:
    """Round 25 S3 (noticed): a top term's label was cut at 24 characters, and pygal leaves
    room for a label by its count of characters, so 24 wide letters ("WWW…") ran past the
    panel's left edge while 24 narrow ones ("ilil…") used half their room. Now a label is cut
    by its drawn width in the chart's font, and the room left for it is what it draws."""
    panel = SIZE[0] - int(SIZE[0] * 0.62)
    svg = _terms_chart([("W" * 40, 9), ("il" * 40, 5), ("RAG", 1)], panel, 420)
    drawn = re.findall(r'<text x="-5" [^>]*>([^<>]*)</text>', svg)
    assert drawn[0] == "RAG", drawn
    cut_narrow, cut_wide = drawn[1], drawn[2]
    assert cut_wide.startswith("WW"), drawn
    assert cut_wide.endswith("…"), drawn
    assert cut_narrow.startswith("il"), drawn
    assert cut_narrow.endswith("…"), drawn
    assert len(cut_narrow) > len(cut_wide) + 8, drawn  # narrow letters: more of them fit
    widths = [text_width(label, LABEL_SIZE) for label in drawn]
    assert max(widths) <= MAX_LABEL_WIDTH, widths
    # The plot starts where the labels end (each drawn 5 px left of it): none past the edge.
    plot_left = float(re.findall(r'translate\(([\d.]+), [\d.]+\)" class="plot"', svg)[0])
    assert plot_left - 5 - max(widths) >= 0, (plot_left, widths)
    # ... and no wider than the widest label needs (pygal's own margins aside): 49 narrow
    # letters are given no more room than 13 wide ones.
    assert plot_left <= 8 + 10 + max(widths) + 1, (plot_left, widths)
