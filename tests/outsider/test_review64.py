"""review64 (PLAN.md, "Attacks on left58 (review64)"): attacks on left58 that need no Discord."""

from __future__ import annotations

import pytest

from bot.glossary.letters import MIDDLE_MARKER, fit_name, fit_names, whole_letters_cut


@pytest.mark.parametrize(
    "head",
    [
        "Zorbledger shard ",
        "ゾルブラックス",
        "नमस्ते दुनिया ",
        "👨\u200d👩\u200d👧 family ",
        "a\\*b_ ",
        "مرحبا بالعالم ",
        "Ze\u0301\u0301rb ",
        "🇫🇷🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f👍🏽",
        "x",
    ],
)
@pytest.mark.parametrize("limit", [100, 80, 45])
def test_two_long_titles_alike_at_both_ends_show_where_they_part(head: str, limit: int) -> None:
    """`fit_name` keeps a title's start and end: two titles differing only in their middle
    were cut to the same text (two choices, buttons or options that read as one). Side by
    side (`fit_names`) each shows where it parts from the other, within the limit, whole
    letters, its start and its end kept; a title alone, or the same twice, is cut as before."""
    filler = (head * 300)[:120].strip()
    titles = [f"{filler} {middle} {filler}" for middle in ("Alpha", "Omega")]
    assert fit_name(titles[0], limit) == fit_name(titles[1], limit)  # the cut alone: alike
    cuts = fit_names([*titles, "Zorb", titles[0]], limit)
    assert cuts[0] != cuts[1], cuts
    assert cuts[2:] == ["Zorb", cuts[0]], cuts
    for title, cut, middle in zip(titles, cuts[:2], ("Alpha", "Omega"), strict=True):
        assert len(cut) <= limit, cut
        start, inside, end = cut.split(MIDDLE_MARKER)
        assert title.startswith(start), cut
        assert title.endswith(end), cut
        assert inside in title, cut
        at = title.index(inside)
        assert whole_letters_cut(title, at) == at, cut
        assert whole_letters_cut(title, at + len(inside)) == at + len(inside), cut
        assert middle[0] in inside, cut
    assert fit_names([titles[0]], limit) == [fit_name(titles[0], limit)]
