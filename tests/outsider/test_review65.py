"""review65 (PLAN.md, "Attacks on last session's changes (review65)"): the limits' refunds
(left62, left63) at a window's edge, on the limit itself (times given, no clock read)."""

from __future__ import annotations

from bot.discord_app.cooldowns import UserLimit

MODERATOR = 1


def test_a_use_given_back_after_its_window_ended_is_not_one_of_the_next() -> None:
    """A moderator command's use refused gives itself back (`give_back`, at the time the use was
    counted). A refusal that comes after that use's window ended (a slow `/term import`: the
    download, the parse) gave back a use of the window since begun by another: 2 uses a window
    became 3. A use is given back only to the window it was counted in."""
    limit = UserLimit(2, 10.0)
    assert limit.take(MODERATOR, 100.0) is None  # the window 100-110
    assert limit.take(MODERATOR, 109.0) is None  # its second use: a slow import
    assert limit.take(MODERATOR, 111.0) is None  # the window 111-121: its first use
    limit.give_back(MODERATOR, 109.0)  # the import refused, its window over
    assert limit.take(MODERATOR, 112.0) is None  # the second use of 111-121
    assert limit.take(MODERATOR, 113.0) is not None  # a third: going a bit fast


def test_a_use_given_back_within_its_window_is_taken_again() -> None:
    limit = UserLimit(2, 10.0)
    assert limit.take(MODERATOR, 100.0) is None
    assert limit.take(MODERATOR, 101.0) is None
    limit.give_back(MODERATOR, 101.0)  # refused: its use back
    assert limit.take(MODERATOR, 102.0) is None
    assert limit.take(MODERATOR, 103.0) is not None
    assert limit.take(MODERATOR, 111.0) is None  # the window 100-110 over: a new one
