"""The Markdown-like glossary shape (seed 000, Backend.AI GO).

Every heading is a line ending in a pilcrow. The first heading is the document title (its body an
introduction); single-character headings are letter sections; every other heading starts a term
whose body runs to the next heading. "Name (X)" makes X an alias, whichever way round it goes.
A heading's leading Markdown marks ("## Name¶", as a moderator writes one) are not its name.
"""

from __future__ import annotations

import re

from bot.glossary.formats.raw import RawEntry, file_reader
from bot.glossary.problems import Problem
from bot.glossary.slug import looks_like_acronym, slugify

HEADING_MARK = "¶"
_MARKDOWN_HEADING = re.compile(r"^#{1,6}\s+")
_NAME_AND_PAREN = re.compile(r"^(?P<name>.+?)\s*\((?P<paren>[^()]+)\)$")
_SEE_ALSO = re.compile(r"\bSee ([A-Z][\w.\- ]*?)\.(?:\s|$)")


def parse_markdown(text: str, name: str, source: str, problems: list[Problem]) -> list[RawEntry]:
    """The entries of a Markdown glossary's text; `name` names it in problems."""
    lines = text.splitlines()
    headings = [i for i, line in enumerate(lines) if line.rstrip().endswith(HEADING_MARK)]
    if not headings:
        problems.append(Problem("error", name, f"no headings (lines ending in {HEADING_MARK})"))
        return []

    entries = []
    for n, start in enumerate(headings[1:], start=1):  # headings[0] is the document title
        heading = heading_text(lines[start])
        if len(heading) <= 1:
            continue  # a letter section: "A¶"
        end = headings[n + 1] if n + 1 < len(headings) else len(lines)
        body = _paragraphs(lines[start + 1 : end])
        if not body:
            problems.append(
                Problem(
                    "error", name, "heading without a definition", entry=heading, line=start + 1
                )
            )
            continue
        entries.append(_entry(heading, body, source, name, start + 1))
    return entries


def heading_text(line: str) -> str:
    """A heading line's name: without its pilcrow and any leading Markdown heading marks."""
    return _MARKDOWN_HEADING.sub("", line.rstrip().removesuffix(HEADING_MARK).strip())


def _paragraphs(lines: list[str]) -> str:
    """Join the body's lines into paragraphs separated by one blank line, text kept as written."""
    paragraphs: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            paragraphs[-1].append(line.strip())
        elif paragraphs[-1]:
            paragraphs.append([])
    return "\n\n".join(" ".join(p) for p in paragraphs if p)


def _entry(heading: str, body: str, source: str, file: str, line: int) -> RawEntry:
    title, acronym, aliases = heading, None, []
    match = _NAME_AND_PAREN.match(heading)
    if match:
        title, paren = match["name"].strip(), match["paren"].strip()
        parts = [p.strip() for p in paren.split(",") if p.strip()]
        if len(parts) == 1 and looks_like_acronym(paren) and not looks_like_acronym(title):
            acronym = paren  # "Chain of Thought (CoT)"
        else:
            aliases = parts  # an expansion, or a list: "Floating Point (FP16, FP32, BF16)"
            if len(parts) == 1 and looks_like_acronym(title):
                acronym = title  # "LLM (Large Language Model)"
    return RawEntry(
        source=source,
        file=file,
        local_id=heading,
        id=slugify(title),
        title=title,
        acronym=acronym,
        aliases=aliases,
        definition=body,
        see_also=_SEE_ALSO.findall(body),
        line=line,
    )


read_markdown = file_reader(parse_markdown)
