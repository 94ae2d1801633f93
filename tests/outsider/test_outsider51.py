"""outsider51: outsider round 34 (PLAN.md, "Outsider round 34 (outsider51)"). A self-hoster
and a moderator who have never seen the code, driving what the README promises."""

from __future__ import annotations

import itertools
import string

from bot.glossary import load_glossary
from bot.glossary.interchange import export_bytes, import_cap, parse_import
from bot.glossary.server_terms import ServerTerm, check_caps, text_size

# Two-character items, each its own: the most items a list holds for its bytes (a 1-character
# one is one of a few dozen, quotes and backslashes aside).
PAIRS = ["".join(p) for p in itertools.product(string.ascii_lowercase + string.digits, repeat=2)]


def _filled(max_terms: int, max_text: int, field: str, items: int) -> list[ServerTerm]:
    """As many terms as the caps let in (as `check_caps` counts them), each with `items`
    two-character items in `field`: the set of terms whose export is the largest for its text."""
    terms: list[ServerTerm] = []
    size = 0
    for n in range(max_terms):
        values = tuple(PAIRS[n % 7 : n % 7 + items])
        term = ServerTerm(
            id=f"zq{n:04d}",
            title=f"Zq {n:04d}",
            definition="Zq.",
            category="Fundamentals",
            **{field: values},
        )
        size += text_size(term)
        if size > max_text:
            break
        terms.append(term)
    assert check_caps(terms, max_terms=max_terms, max_text_bytes=max_text) == []
    return terms


def test_a_server_at_its_text_cap_exports_a_file_its_import_takes() -> None:
    """P1: `/term export` of a server at its caps imports back (README: the import cap is "room
    for the export of a server at its caps"). The cap counted a list's names alone, and an
    export writes two quotes and ", " for each: a file of 2-letter keywords that the import took
    (5.17 MB at the default caps, its 2.08 MB of text under 2 MiB) exported to 6.2 MB, which
    the same import refused. A list is now counted as the form lists it."""
    max_terms, max_text = 400, 512 * 1024  # the text cap binds, as at the defaults; quicker
    cap = import_cap(max_terms, max_text)
    for field in ("keywords", "aliases", "related"):
        terms = _filled(max_terms, max_text, field, items=1200)
        assert 100 < len(terms) < max_terms, (field, len(terms))  # the text cap binds
        exported = export_bytes(terms)
        assert len(exported) <= cap, (field, len(exported), cap)
    # The last (related ids naming no term here) is no file an import takes; keywords are.
    terms = _filled(max_terms, max_text, "keywords", items=1200)
    again, problems = parse_import(
        export_bytes(terms), "terms.toml", load_glossary(), max_terms=max_terms, max_bytes=cap
    )
    assert [str(p) for p in problems if p.severity == "error"] == []
    assert again == terms
    assert check_caps(again, max_terms=max_terms, max_text_bytes=max_text) == []


def test_the_import_option_names_no_cap_the_bot_does_not_apply() -> None:
    """Discord shows `/term import`'s file option with its description: it said "at most 1
    MiB", the least the cap can be, where a server at the default caps may import 4.98 MiB
    (README), the size of its own export. A cap depends on the settings: the box names none."""
    from bot.discord_app.cogs.terms import TermCog

    option = TermCog.import_.get_parameter("file")
    assert option is not None
    assert "MiB" not in option.description, option.description
    assert import_cap() > 4 * 2**20  # what the description understated
