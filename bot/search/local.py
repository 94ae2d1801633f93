"""What one server searches: the bundled glossary with that server's own terms in it, its index,
and its aliases compiled against that index.

Built once per change of the server's terms or aliases (the discord layer caches it on the
store's versions, off the event loop), never per request: indexing a glossary takes a tenth of a
second. A server without terms shares the bundled glossary and index. Server terms are found by
their names and words; the meaning (semantic) stage knows the bundled entries only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.glossary import Glossary
from bot.glossary.server_terms import ServerTerm, server_glossary
from bot.search.index import SearchIndex
from bot.search.server_aliases import ServerAliases


@dataclass(frozen=True)
class LocalGlossary:
    glossary: Glossary
    index: SearchIndex
    aliases: ServerAliases
    terms: tuple[ServerTerm, ...]  # as read from the store
    base: SearchIndex  # the bundled index this was built on (a glossary reload makes another)


def compile_local(
    bundled: Glossary,
    base: SearchIndex,
    terms: Sequence[ServerTerm],
    aliases: Mapping[str, str],
    previous: LocalGlossary | None = None,
) -> LocalGlossary:
    """The server's glossary, index and aliases; parts of `previous` that did not change are
    kept (a change of aliases alone does not index the glossary again)."""
    terms = tuple(terms)
    if previous is not None and previous.base is base and previous.terms == terms:
        glossary, index = previous.glossary, previous.index
    elif terms:
        glossary = server_glossary(bundled, terms)
        # The bundled entries keep their positions (an overlay takes its entry's place, new
        # terms come after), so the bundled semantic vectors serve here as they are. Server
        # terms are not embedded: that costs about half a second a term, per change.
        index = SearchIndex.build(glossary, semantic=base.semantic or False)
    else:
        glossary, index = bundled, base
    if previous is not None and previous.index is index and previous.aliases.source == aliases:
        compiled = previous.aliases
    else:
        compiled = index.server_aliases(dict(aliases))
    return LocalGlossary(glossary, index, compiled, terms, base)
