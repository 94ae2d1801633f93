"""outsider76 (tests/outsider/PLAN.md, "outsider76"): what an operator met running `glossary-bot
terms import` on a Markdown glossary, which has no categories (the command line, in this
process)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.resilience.botproc import CLI_ENV, glossary_bot_run_here

MARKDOWN = "Glossary¶\n\nFoo Widget¶\n\nA widget of foos.\n\nBar Gizmo¶\n\nA gizmo of bars.\n"


def _import(tmp_path: Path, *options: str) -> tuple[int, str, str]:
    (tmp_path / "ours.md").write_text(MARKDOWN, encoding="utf-8")
    done = glossary_bot_run_here(
        CLI_ENV, tmp_path, "terms", "import", "ours.md", "--guild", "7", "--db", "g.db", *options
    )
    return done.returncode, done.stdout, done.stderr


def test_an_unknown_category_is_the_option_s_mistake_not_the_file_s(tmp_path: Path) -> None:
    """outsider76: `--category Nope` was taken, and each of the file's entries was then refused
    for "unknown category 'Nope'" as if the file had said it (a file whose entries all give
    one imported with the mistyped option unsaid). It is the option's error: the command's
    usage line, exit 2, nothing read or written."""
    status, out, err = _import(tmp_path, "--category", "Nope")
    assert status == 2, (out, err)
    assert "argument --category" in err, err
    assert "'Nope'" in err, err
    assert "Inference & Operations" in err, err  # the categories it may be
    assert "Foo Widget" not in out + err, (out, err)
    assert not (tmp_path / "g.db").exists()


def test_a_category_option_in_other_letters_is_the_category(tmp_path: Path) -> None:
    """outsider76: a file's `category = "inference & operations"` is read as the category, in
    any case; the same words given as `--category` refused every entry."""
    status, out, err = _import(tmp_path, "--category", "inference & operations")
    assert status == 0, (out, err)
    assert out.startswith("Imported: 2 added"), out
    export = glossary_bot_run_here(
        CLI_ENV, tmp_path, "terms", "export", "--guild", "7", "--db", "g.db"
    )
    assert export.stdout.count('category = "Inference & Operations"') == 2, export.stdout


def test_entries_without_a_category_are_told_of_the_category_option(tmp_path: Path) -> None:
    """outsider76: a Markdown glossary (which has no categories) imported without `--category`
    was refused with "Category: choose a category (one of: …)" for each heading: nothing a
    Markdown file can say, and nothing named the option that gives one."""
    status, out, err = _import(tmp_path)
    assert status == 1, (out, err)
    assert "“Foo Widget”, Category:" in err, err
    assert "--category" in err, err


# A maintainer's own glossary file, served beside the bundled data (GLOSSARY_PATHS), each
# test breaking it as a hand edit does.
MINE = """[[entries]]
id = "zorb-cache"
title = "Zorb Cache"
category = "Inference & Operations"
definition = "A cache of zorbs kept between requests."
related = ["flurb-index"]

[[entries]]
id = "flurb-index"
title = "Flurb Index"
category = "Retrieval & Context"
definition = "An index of flurbs."
"""


def _check(tmp_path: Path, text: str) -> tuple[int, list[str]]:
    (tmp_path / "mine.toml").write_text(text, encoding="utf-8")
    done = glossary_bot_run_here(CLI_ENV, tmp_path, "check", "-q", "mine.toml")
    assert done.stderr == "", done.stderr
    return done.returncode, done.stdout.splitlines()  # -q: the errors alone


def test_a_maintainer_s_file_checks_clean(tmp_path: Path) -> None:
    assert _check(tmp_path, MINE) == (0, [])


def test_check_names_the_key_a_misspelt_one_meant(tmp_path: Path) -> None:
    """outsider76: `defintion = "…"` was "defintion: unknown key" and "definition: missing
    required field", where a misspelt table, `[[entry]]`, is told "did you mean [[entries]]?"."""
    status, said = _check(tmp_path, MINE.replace('definition = "A cache', 'defintion = "A cache'))
    assert status == 1
    assert (
        "mine.toml:2 [zorb-cache]: error: defintion: unknown key (did you mean 'definition'?)"
        in (said)
    ), said
    status, said = _check(tmp_path, MINE.replace("related = ", "zorbitude = "))
    assert said == ["mine.toml:2 [zorb-cache]: error: zorbitude: unknown key"], said


def test_check_names_the_id_a_misspelt_related_id_meant(tmp_path: Path) -> None:
    """outsider76: `related = ["flurb-indx"]` was "related id 'flurb-indx' names no entry", where
    a title written for an id is told which id it names."""
    status, said = _check(tmp_path, MINE.replace('["flurb-index"]', '["flurb-indx"]'))
    assert status == 1
    assert said == [
        "mine.toml:2 [zorb-cache]: error: related id 'flurb-indx' names no entry "
        "(did you mean 'flurb-index'?)"
    ], said


def test_check_says_a_list_field_given_one_text_is_written_in_brackets(tmp_path: Path) -> None:
    """outsider76: `related = "flurb-index"` was "related: Input should be a valid list",
    pydantic's words, not the fix."""
    status, said = _check(tmp_path, MINE.replace('["flurb-index"]', '"flurb-index"'))
    assert status == 1
    assert len(said) == 1, said
    assert said[0].startswith("mine.toml:2 [zorb-cache]: error: related: "), said
    assert "Input should be" not in said[0], said
    assert 'written in brackets: ["…", "…"]' in said[0], said


def test_check_says_what_is_wrong_with_a_reference_url(tmp_path: Path) -> None:
    """outsider76: every refused reference was "bad reference URL '…'", whatever was wrong:
    the scheme left off, a space, a port that is no number, a host with no dot."""
    for url, why in (
        ("example.org/zorb", "https://"),
        ("ftp://example.org/zorb", "http or https"),
        ("https://example.org/a b", "space"),
        ("https://example.org:8o80/zorb", "port"),
        ("https://wiki/zorb", "dot"),
        ("https:///zorb", "host"),
    ):
        text = MINE.replace('related = ["flurb-index"]', f'reference = "{url}"')
        status, said = _check(tmp_path, text)
        assert status == 1, url
        assert len(said) == 1, said
        assert said[0].startswith(
            f"mine.toml:2 [zorb-cache]: error: bad reference URL '{url}': "
        ), said
        assert why in said[0].split(f"'{url}': ", 1)[1], (url, said)


def test_check_says_how_long_a_title_or_definition_is(tmp_path: Path) -> None:
    """outsider76: "summary longer than 1,024 characters (1,040)" gave the count; "definition
    longer than 4096 characters" and "title longer than 256 characters" did not."""
    text = MINE.replace("A cache of zorbs kept between requests.", "x" * 4_100)
    text = text.replace('title = "Zorb Cache"', f'title = "{"Z" * 300}"')
    status, said = _check(tmp_path, text)
    assert status == 1
    assert "error: title longer than 256 characters (300)" in " ".join(said), said
    assert "error: definition longer than 4,096 characters (4,100)" in " ".join(said), said


def test_stats_on_the_command_line_names_its_periods_as_slash_stats_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """outsider76: `glossary-bot stats --period month --chart c.png` titled "the last month",
    text and picture, where `/stats` titles the same rolling window, and the picture README
    says `--chart` writes, "the last 30 days" (outsider75 renamed /stats' own)."""
    import bot.cards.chart

    drawn: list[str] = []

    def chart(*args: object, title: str, **kwargs: object) -> bytes:
        drawn.append(title)
        return b"png"

    monkeypatch.setattr(bot.cards.chart, "lookups_chart", chart)
    assert _import(tmp_path, "--category", "Fundamentals")[0] == 0  # makes g.db
    said = {}
    for period in ("day", "week", "month", "all"):
        done = glossary_bot_run_here(
            CLI_ENV, tmp_path, "stats", "--db", "g.db", "--period", period, "--chart", "c.png"
        )
        assert done.returncode == 0, done.stderr
        said[period] = done.stdout.splitlines()[0]
    assert said == {
        "day": "Glossary Bot stats: all servers, the last 24 hours",
        "week": "Glossary Bot stats: all servers, the last 7 days",
        "month": "Glossary Bot stats: all servers, the last 30 days",
        "all": "Glossary Bot stats: all servers, all time",
    }
    assert drawn == [
        "Glossary lookups, the last 24 hours: 0",
        "Glossary lookups, the last 7 days: 0",
        "Glossary lookups, the last 30 days: 0",
        "Glossary lookups, all time: 0",
    ]


def test_a_folder_checked_alone_is_told_its_references_are_the_bundled_data_s(
    tmp_path: Path,
) -> None:
    """outsider76: a maintainer's folder whose entries relate to bundled ones ("rag"), checked
    (or served, GLOSSARY_PATHS) alone: "related id 'rag' names no entry", true of those paths,
    which are served instead of the bundled data, but nothing said that 'rag' is the bundled
    data's and that naming its folder too serves both. A misspelt id stays as it was."""
    from bot.glossary import bundled_data_dir

    text = MINE.replace('related = ["flurb-index"]', 'related = ["flurb-index", "rag", "rgg"]')
    status, said = _check(tmp_path, text)
    assert status == 1
    rag = next(line for line in said if "'rag'" in line)
    assert rag.startswith("mine.toml:2 [zorb-cache]: error: related id 'rag' names no entry"), rag
    assert "bundled data" in rag, rag
    assert str(bundled_data_dir()) in rag, rag
    rgg = next(line for line in said if "'rgg'" in line)
    assert "bundled" not in rgg, rgg
    # Checked with the bundled data's folder, it is found.
    (tmp_path / "mine.toml").write_text(text.replace(', "rgg"', ""), encoding="utf-8")
    done = glossary_bot_run_here(CLI_ENV, tmp_path, "check", "-q", str(bundled_data_dir()), ".")
    assert done.returncode == 0, done.stdout
