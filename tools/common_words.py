"""Write the list of common English words the search uses to tell an everyday word from jargon.

    pip install -e '.[export]' && python tools/common_words.py

Source: wordfreq's English frequencies (a blend of Wikipedia, subtitles, news, books, web text,
Twitter and Reddit). Kept: plain ASCII alphabetic words at or above `COMMON_ZIPF` on the Zipf
scale (log10 of occurrences per billion words: 2.5 is about 3 per million words, where
"checkpoint" (3.4), "rubric" (2.75) and "sandbox" (3.0) are, and "logits", "softmax" (1.3) and
"overfitting" (1.75) are not). The list is a plain sorted text file, one word a line, so the
bot needs no wordfreq (a 57 MB wheel) at run time.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bot/search/common_words.txt"
COMMON_ZIPF = 2.5


def main() -> int:
    from importlib.metadata import version

    from wordfreq import iter_wordlist, zipf_frequency

    words = set()
    for word in iter_wordlist("en"):  # most frequent first
        if zipf_frequency(word, "en") < COMMON_ZIPF:
            break
        if word.isascii() and word.isalpha():
            words.add(word)
    source = f"wordfreq {version('wordfreq')}"
    header = f"# English words at Zipf >= {COMMON_ZIPF} in {source} (tools/common_words.py)\n"
    OUT.write_text(header + "\n".join(sorted(words)) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(words)} words, {OUT.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
