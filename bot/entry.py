"""`glossary-bot`, the program, however it is started: the installed script (pyproject.toml),
`python -m bot` and `python -m bot.cli` all run `main`. A stop, a reload or a Ctrl-C from its
first moment is its command's to answer.

Importing the command line and parsing its arguments take some 50 ms, before any command says
what its signals do; a Ctrl-C then printed Python's own KeyboardInterrupt traceback, and SIGTERM
or SIGHUP (a `kill -HUP` just after a restart) killed the process by the signal. They are held
instead (`main`), and given to the command once its own handling is in place (`hand_over`, from
`cli.main`): `run` then stops as it does while it starts (exit 0, nothing printed) and keeps a
reload for when it runs; any other command ends as it would a moment later (130 for Ctrl-C, by
the signal for the others). What comes before `main` (the interpreter starting, this module's
import) is not the bot's to change.
"""

from __future__ import annotations

import signal

HELD = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_held: list[int] = []  # the signals held until `hand_over`, in the order they came


def _hold(signum: int, frame: object) -> None:
    _held.append(signum)


def main() -> int:
    for signum in HELD:
        signal.signal(signum, _hold)
    from bot.cli import main as command_line

    return command_line()


def hand_over() -> None:
    """The command's own handling of its signals is in place (`run`'s), or it has none (Python's
    put back: Ctrl-C's KeyboardInterrupt, the others' default action): each signal held since
    the program began is given to it now, once. Nothing when the command line was not started
    by `main` (a test calling `cli.main`)."""
    for signum in HELD:
        if signal.getsignal(signum) is _hold:
            python_own = signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL
            signal.signal(signum, python_own)
    held = list(dict.fromkeys(_held))
    _held.clear()
    for came in held:
        signal.raise_signal(came)
