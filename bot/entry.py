"""`glossary-bot`, the program (pyproject.toml's script): a Ctrl-C from its first moment is its
command's to answer.

Importing the command line and parsing its arguments take some 50 ms, before any command says
what Ctrl-C does; one then printed Python's own KeyboardInterrupt traceback. It is held instead
(`main`), and given to the command once its own handling is in place (`hand_over`, from
`cli.main`): `run` then stops as it does while it starts (exit 0, nothing printed), any other
command ends with 130, as each does a moment later. What comes before `main` (the interpreter
starting, this module's import) is not the bot's to change.
"""

from __future__ import annotations

import signal

_held: list[int] = []  # the Ctrl-Cs held until `hand_over`


def _hold(signum: int, frame: object) -> None:
    _held.append(signum)


def main() -> int:
    signal.signal(signal.SIGINT, _hold)
    from bot.cli import main as command_line

    return command_line()


def hand_over() -> None:
    """The command's own handling of Ctrl-C is in place (`run`'s), or it has none (Python's,
    put back): a Ctrl-C held since the program began is given to it now. Nothing when the
    command line was not started by `main` (`python -m bot.cli`, a test)."""
    if signal.getsignal(signal.SIGINT) is _hold:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if _held:
        _held.clear()
        signal.raise_signal(signal.SIGINT)
