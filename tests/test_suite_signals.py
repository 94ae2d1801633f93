"""How the test process handles signals, whatever started it."""

from __future__ import annotations

import signal


def test_ctrl_c_reaches_the_tests_however_the_run_was_started() -> None:
    """The tests that press Ctrl-C (`signal.raise_signal`) need Python's own SIGINT handler,
    the one a run started in a terminal has. One started in the background by a shell without
    job control (`make test &`, a script's `cmd &`) inherited SIGINT ignored, and those
    tests failed in every such run (this one too); tests/conftest.py puts the handler back.
    Nor has a test run before this one in its worker left another in its place."""
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
