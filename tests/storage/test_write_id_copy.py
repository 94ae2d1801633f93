"""review50: `migrate-db` of a SQLite file's audit logs, write ids and all, into the other
backend (PostgreSQL, or a new SQLite file) through the real command line: which alias went with
its term reads the same in the copy (left47's `write_id`; its test copied within one backend,
through `copy_into`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from bot.term_storage import TermChange, change_terms

from .conftest import FakeClock, OpenStore
from .test_migrate_db import migrate_db


def _term(term_id: str, title: str) -> ServerTerm:
    return ServerTerm(
        id=term_id, title=title, definition="Ours, for tests.", category="Fundamentals"
    )


def _removing(term_id: str) -> Callable[[object, Mapping[str, str]], tuple[TermChange, None]]:
    def plan(_: object, aliases: Mapping[str, str]) -> tuple[TermChange, None]:
        gone = tuple(key for key, entry_id in aliases.items() if entry_id == term_id)
        return TermChange(remove=(term_id,), drop_aliases=gone), None

    return plan


async def _why(store: Store, keys: list[str]) -> list[tuple[str, str | None, int | None]]:
    """Each key: (key, the term it went with or None, by whom) or None where it is there."""
    out = []
    for key in keys:
        removal = await store.alias_removal(1, key)
        assert removal is not None, key
        term = removal.term
        out.append((key, term.term_id if term else None, term.actor_id if term else None))
    return out


def _putting(term: ServerTerm) -> Callable[..., tuple[TermChange, None]]:
    return lambda *_: (TermChange(put=(term,)), None)


KEYS = ["a1", "a2", "b1", "b2", "alone1", "alone2"]


async def test_which_alias_went_with_its_term_survives_a_copy_to_either_backend(
    open_any: OpenStore, location: str, tmp_path: Path, clock: FakeClock
) -> None:
    """Two terms removed in one second by two moderators, each taking two aliases, and two
    aliases removed alone in that second by the same moderators; then copied by `migrate-db`.
    Holds: the copy reads each as the source does."""
    source_path = tmp_path / "source.db"
    source = await Store.open(source_path, clock=clock)
    terms = (_term("ta", "Zorblax"), _term("tb", "Quarble"))
    await change_terms(source, 1, lambda *_: (TermChange(put=terms), None), 7)
    for key, term_id in (
        ("a1", "ta"),
        ("a2", "ta"),
        ("alone1", "ta"),
        ("b1", "tb"),
        ("b2", "tb"),
        ("alone2", "tb"),
    ):
        await source.add_alias(1, key, key, term_id, 7)
    await source.remove_alias(1, "alone1", 7)  # alone, then its term by the same moderator
    await source.remove_alias(1, "alone2", 8)
    await change_terms(source, 1, _removing("ta"), 7)
    await change_terms(source, 1, _removing("tb"), 8)
    expected = [
        ("a1", "ta", 7),
        ("a2", "ta", 7),
        ("b1", "tb", 8),
        ("b2", "tb", 8),
        ("alone1", None, None),
        ("alone2", None, None),
    ]
    assert await _why(source, KEYS) == expected
    await source.close()
    for target in (location, str(tmp_path / "copy.db")):
        done = migrate_db("--from", str(source_path), "--to", target)
        assert done.returncode == 0, done.stderr
        copy = await open_any(target)
        assert await _why(copy, KEYS) == expected, target


async def test_an_aliases_last_removal_after_a_forced_copy_is_the_newest_in_time(
    open_any: OpenStore, location: str, tmp_path: Path
) -> None:
    """review50's leftover: `migrate-db --force` appends the source's audit rows after the
    target's own, and an alias's last removal was read by row id: an alias the target removed
    alone an hour after the source had removed it with its term read "removed with its term"
    at the source's older time. Row ids order one database's writes; across two merged logs
    only the time does. The newest in time is the last removal (the same second: by id)."""
    source_clock = FakeClock()
    source_path = tmp_path / "source.db"
    source = await Store.open(source_path, clock=source_clock)
    await change_terms(source, 1, lambda *_: (TermChange(put=(_term("ta", "Zorblax"),)), None), 7)
    await source.add_alias(1, "older", "older", "ta", 7)  # removed with its term, then the
    await source.add_alias(1, "newer", "newer", "ta", 7)  # target removes it alone, later
    source_clock.advance(minutes=1)
    await change_terms(source, 1, _removing("ta"), 7)
    await source.close()

    target_clock = FakeClock()
    target = await Store.open(location, clock=target_clock)
    await target.add_alias(1, "newer", "newer", "rag", 9)
    await target.add_alias(1, "older", "older", "rag", 9)
    await target.remove_alias(1, "older", 9)  # a minute before the source's removal
    target_clock.advance(hours=1)
    await target.remove_alias(1, "newer", 9)  # an hour after it
    await target.close()

    done = migrate_db("--from", str(source_path), "--to", location, "--force")
    assert done.returncode == 0, done.stderr
    merged = await open_any(location)
    newer = await merged.alias_removal(1, "newer")
    assert newer is not None
    assert (newer.at, newer.term) == (target_clock.now, None)  # alone, at the target's hour
    older = await merged.alias_removal(1, "older")
    assert older is not None
    assert older.term is not None
    assert (older.at, older.term.term_id) == (source_clock.now, "ta")  # with its term


async def test_a_merged_log_reads_newest_in_time_first_page_by_page(
    open_any: OpenStore, location: str, tmp_path: Path
) -> None:
    """left50's leftover: after `migrate-db --force` the source's rows come after the target's
    ids, and `/term log` (`terms log`, the alias log) listed by id: the source's older changes
    came first, above the target's newer ones. Now newest in time, ties by id; the pages (a
    cursor of an entry's id, as `/term log`'s Older button carries) go on from that entry's
    place in that order, none shown twice or skipped."""
    source_clock = FakeClock()
    source_path = tmp_path / "source.db"
    source = await Store.open(source_path, clock=source_clock)
    for term_id, title in (("sa", "Zorblax"), ("sb", "Quarble")):
        await change_terms(source, 1, _putting(_term(term_id, title)), 7)
        await source.add_alias(1, term_id + "x", term_id + "x", term_id, 7)
        source_clock.advance(minutes=1)
    await source.close()

    target_clock = FakeClock()
    target_clock.advance(hours=1)
    target = await Store.open(location, clock=target_clock)
    for term_id, title in (("ta", "Blorptex"), ("tb", "Snorkel")):
        await change_terms(target, 1, _putting(_term(term_id, title)), 9)
        await target.add_alias(1, term_id + "x", term_id + "x", "rag", 9)
        target_clock.advance(minutes=1)
    await target.close()

    done = migrate_db("--from", str(source_path), "--to", location, "--force")
    assert done.returncode == 0, done.stderr
    merged = await open_any(location)
    pages, older_than = [], None
    while page := await merged.term_audit_log(1, 1, older_than=older_than):
        pages.append(page[0].term_id)
        older_than = page[0].id
    assert pages == ["tb", "ta", "sb", "sa"]
    whole = await merged.term_audit_log(1, 10)
    assert [r.term_id for r in whole] == pages
    aliases = await merged.audit_log(1)
    assert [r.alias_key for r in aliases] == ["tbx", "tax", "sbx", "sax"]


async def test_an_older_page_whose_entry_is_gone_goes_on_by_id(
    open_any: OpenStore, clock: FakeClock
) -> None:
    """review54: `/term log`'s Older button carries an entry's id, and review53's page reads that
    entry's time: where the entry is gone (`restore` of a backup taken before it was written)
    there is no time, and the page said "No older changes." of a log that has them. Such a
    cursor goes on by id, as pages did before: the entries written before it."""
    store = await open_any()
    for term_id, title in (("ta", "Zorblax"), ("tb", "Quarble"), ("tc", "Blorptex")):
        await change_terms(store, 1, _putting(_term(term_id, title)), 7)
        clock.advance(minutes=1)
    whole = await store.term_audit_log(1, 10)
    assert [r.term_id for r in whole] == ["tc", "tb", "ta"]
    gone = whole[0].id + 1  # a later write's entry, not in this database
    page = await store.term_audit_log(1, 10, older_than=gone)
    assert [r.term_id for r in page] == ["tc", "tb", "ta"]
    page = await store.term_audit_log(1, 10, older_than=whole[1].id)  # one that is there
    assert [r.term_id for r in page] == ["ta"]
