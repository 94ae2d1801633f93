"""review72 (tests/outsider/PLAN.md, "review72"): attacks on the seventh session's changes as an
outsider makes them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.resilience.botproc import glossary_bot_here

from .test_product70 import _imported
from .test_review71 import ONE_ENTRY
from .test_round11 import CLI_ENV


@pytest.mark.parametrize(
    "reference",
    [
        "https://example.org:abc/page",  # a port that is no number
        "https://example.org:99999/page",  # a port past 65535
        "https://:443/page",  # a port and no host
        "https://example.org/a\\u0000b",  # a NUL (TOML's escape)
        "https://example.org/a\\tb",  # a tab
    ],
)
def test_a_reference_url_with_no_valid_port_host_or_with_control_characters_is_a_problem(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    reference: str,
) -> None:
    """review71 made an address urllib cannot split "bad reference URL". One it splits but that
    names no port (":abc", ":99999"), no host, or holds a control character was taken: the card's
    title links to it, an address no browser opens (and Discord checks a link's address). It is
    the same "bad reference URL", from `check` and from `terms import`."""
    monkeypatch.chdir(tmp_path)
    text = ONE_ENTRY + f'reference = "{reference}"\n'
    code, said = _imported(tmp_path, capsys, "ours.toml", text)
    assert code == 1, said
    assert "Reference: bad reference URL" in said, said
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "mine.toml").write_text(
        text.replace("[[entries]]\n", '[[entries]]\nid = "zorblax"\n')
    )
    status, said = glossary_bot_here(CLI_ENV, tmp_path, "check", str(folder))
    assert status == 1, said
    assert "bad reference URL" in said, said


@pytest.mark.parametrize(
    "reference",
    ["https://[::1]/page", "https://example.org:8443/page", "http://example.org/a%20b?q=1#x"],
)
def test_a_good_reference_url_is_taken(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    reference: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, said = _imported(
        tmp_path, capsys, "ours.toml", ONE_ENTRY + f'reference = "{reference}"\n'
    )
    assert code == 0, said
    assert "bad reference" not in said, said
