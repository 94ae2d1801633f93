"""outsider76 (tests/outsider/PLAN.md, "outsider76"): what an operator met running `glossary-bot
terms import` on a Markdown glossary, which has no categories (the command line, in this
process)."""

from __future__ import annotations

from pathlib import Path

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
