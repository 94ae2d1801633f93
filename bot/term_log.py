"""A server's term audit log, read for people: each entry says who did what to which term (or
suggestion), when, and for a changed term the fields before and after. `/term log` and
`glossary-bot terms log` show these; each renders names and mentions its own way."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from bot.glossary.server_terms import FIELD_LABELS, ServerTerm
from bot.storage import OPERATOR_ACTOR, TermAuditRecord

# How far one field's value is shown; a log is a record to skim, the term itself is one /define
# away.
VALUE_CHARS = 160

_VERBS = {
    "term_add": "added",
    "term_edit": "edited",
    "term_remove": "removed",
    "term_import": "imported",
    "term_rename": "renamed (the glossary gave its id to an entry)",
    "suggestion_accept": "accepted the suggestion",
    "suggestion_reject": "rejected the suggestion",
}


@dataclass(frozen=True, slots=True)
class Change:
    label: str  # the field as the form names it
    before: str  # "" when it had none
    after: str


@dataclass(frozen=True, slots=True)
class LogEntry:
    id: int
    at: datetime
    actor_id: int  # 0: an operator, from the command line (or the bot: `by_bot`)
    verb: str  # "added", "edited", "rejected the suggestion", ...
    title: str  # the term's (or suggestion's) title, as written: render it escaped
    member_id: int | None = None  # who made the suggestion decided on
    term_id: str | None = None
    changes: list[Change] = field(default_factory=list)
    by_bot: bool = False  # the bot's own change (a rename: the glossary gave the id to an entry)


def log_entry(record: TermAuditRecord) -> LogEntry:
    before, after = _term(record.before), _term(record.after)
    verb = _VERBS.get(record.action, record.action)
    if record.action.startswith("suggestion_"):
        suggestion = _json(record.before)
        member = suggestion.get("user_id")
        return LogEntry(
            record.id,
            record.at,
            record.actor_id,
            verb,
            str(suggestion.get("title", "")),
            member_id=member if isinstance(member, int) else None,
            term_id=record.term_id,
        )
    if record.action == "term_import":  # one entry per term the import added, changed, removed
        verb = "imported (added)" if before is None else "imported (changed)"
        verb = "imported (removed)" if after is None else verb
    shown = after or before
    return LogEntry(
        record.id,
        record.at,
        record.actor_id,
        verb,
        shown.title if shown else (record.term_id or ""),
        term_id=record.term_id,
        changes=changes(before, after) if before and after else [],
        by_bot=_by_bot(record),
    )


def changes(before: ServerTerm, after: ServerTerm) -> list[Change]:
    """The fields an edit changed, in the form's order, each value cut to VALUE_CHARS."""
    old, new = before.model_dump(), after.model_dump()
    return [
        Change(FIELD_LABELS.get(key, key), _shown(old[key]), _shown(new[key]))
        for key in FIELD_LABELS
        if key in old and old[key] != new[key]
    ]


def _shown(value: Any) -> str:
    text = ", ".join(value) if isinstance(value, (list, tuple)) else str(value or "")
    text = " ".join(text.split())
    return text if len(text) <= VALUE_CHARS else text[: VALUE_CHARS - 1] + "…"


def _by_bot(record: TermAuditRecord) -> bool:
    """The bot's own change (stored with the operator's id): a rename, the glossary having given
    the term's id to an entry."""
    return record.action == "term_rename"


def _term(body: str | None) -> ServerTerm | None:
    if body is None:
        return None
    try:
        return ServerTerm.model_validate_json(body)
    except ValidationError:  # a suggestion, or a term from a newer bot: shown by its id
        return None


def _json(body: str | None) -> dict[str, Any]:
    try:
        found = json.loads(body or "{}")
    except json.JSONDecodeError:
        return {}
    return found if isinstance(found, dict) else {}


def entry_json(record: TermAuditRecord) -> dict[str, Any]:
    """One entry as the command line's `--json` prints it: the record, bodies parsed, and who
    acted (`actor`): a member (`actor_id` theirs), the operator (`actor_id` 0, as stored) or the
    bot (its rename: no one's id)."""
    by_bot = _by_bot(record)
    actor = "bot" if by_bot else "operator" if record.actor_id == OPERATOR_ACTOR else "member"
    return {
        "id": record.id,
        "at": record.at.isoformat(),
        "actor": actor,
        "actor_id": None if by_bot else record.actor_id,
        "action": record.action,
        "term_id": record.term_id,
        "before": _json(record.before) if record.before else None,
        "after": _json(record.after) if record.after else None,
    }


def plain_lines(entry: LogEntry, actor: str, member: str | None) -> list[str]:
    """The entry as lines of plain text (the command line): `actor` and `member` named by the
    caller."""
    when = entry.at.strftime("%Y-%m-%d %H:%M UTC")
    head = f"{when}  {actor} {entry.verb} “{entry.title}”"
    if member is not None:
        head += f" from {member}"
    if entry.verb.startswith("accepted") and entry.term_id:
        head += f" (as term {entry.term_id})"
    lines = [head]
    for change in entry.changes:
        lines.append(
            f"    {change.label}: {change.before or '(none)'} → {change.after or '(none)'}"
        )
    return lines
