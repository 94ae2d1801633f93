"""OncePerReason: a failure said once per reason, until it ends."""

from __future__ import annotations

from bot.once import OncePerReason


def test_a_reason_is_news_once_until_the_failure_ends() -> None:
    failing = OncePerReason()
    assert not failing.ended()  # nothing was failing
    assert failing.is_new("disk full")
    assert not failing.is_new("disk full")
    assert failing.is_new("read-only")  # another reason is said
    assert failing.is_new("disk full")  # and so is the first again, after it
    assert failing.ended()
    assert not failing.ended()
    assert failing.is_new("disk full")  # a new streak


def test_a_streak_is_news_once_whatever_its_reasons() -> None:
    failing = OncePerReason()
    assert failing.starts()
    assert not failing.starts()  # the same streak
    assert failing.ended()
    assert failing.starts()  # a new streak
    failing.ended()
    assert failing.is_new("disk full")
    assert not failing.starts()  # failing already, for a reason said
