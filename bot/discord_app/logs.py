"""Logging set-up. The token never reaches a log line, whatever the level or the library."""

from __future__ import annotations

import logging
import sys

REDACTED = "[redacted]"


class RedactSecrets(logging.Filter):
    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        text = message
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
            if record.exc_text:
                record.exc_text = record.exc_text.replace(secret, REDACTED)
        if text != message:
            record.msg, record.args = text, None
        return True


def configure_logging(level: str, secrets: list[str], label: str = "") -> None:
    """`label` starts every line: which shards this process runs, when it runs some of them."""
    prefix = f"[{label}] " if label else ""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        logging.Formatter(
            f"%(asctime)s %(levelname)-7s {prefix}%(name)s: %(message)s", "%Y-%m-%d %H:%M:%S"
        )
    )
    handler.addFilter(RedactSecrets(secrets))  # on the handler: covers every logger's records
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
