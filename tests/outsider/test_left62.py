"""left62 (PLAN.md, "Leftovers (left62)"): the last stop's leftovers on the command line and
in the tests' own helpers; each failing on main 1571f2ec first."""

from __future__ import annotations

from pathlib import Path

from tests.resilience.botproc import CLI_ENV, glossary_bot_run_here

ZORB = (
    '[[entries]]\ntitle = "Zorbic Café"\ncategory = "Fundamentals"\n'
    'definition = "Our team\'s nightly re-ranker — “zorb” for short."\n'
)


def test_terms_export_to_stdout_runs_in_this_process(tmp_path: Path) -> None:
    """`glossary_bot_run_here` (a command in the test's process) could not run `terms export`
    to stdout: the command writes the file's bytes to `sys.stdout.buffer`, which the
    helper's text stream lacked (a traceback, status 1), so a test wrote `-o` or ran a process
    of its own. Its stdout now has a buffer: the bytes come back as a process's would, in
    order with the text around them, and import back."""
    where = ("--guild", "5", "--db", "g.db")
    imported = glossary_bot_run_here(CLI_ENV, tmp_path, "terms", "import", "-", *where, stdin=ZORB)
    assert imported.returncode == 0, imported.stderr
    exported = glossary_bot_run_here(CLI_ENV, tmp_path, "terms", "export", *where)
    assert (exported.returncode, exported.stderr) == (0, ""), exported.stderr
    assert 'title = "Zorbic Café"' in exported.stdout, exported.stdout
    assert "“zorb” for short" in exported.stdout, exported.stdout
    again = glossary_bot_run_here(
        CLI_ENV, tmp_path, "terms", "import", "-", *where, stdin=exported.stdout
    )
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("Nothing changed"), again.stdout
