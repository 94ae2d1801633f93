"""What one server searches: the bundled glossary with that server's own terms in it, its index,
and its aliases compiled against that index.

Built once per change of the server's terms or aliases (the discord layer caches it on the
store's versions, off the event loop), never per request: indexing a glossary takes a tenth of a
second. A server without terms shares the bundled glossary and index.

Server terms are found by meaning like bundled entries: the bundled vectors serve as they are
(bundled entries keep their positions; an overlay takes its entry's place, new terms come
after), and each server term adds a row of its own text, owned by its card's position, so a term
that overlays a bundled entry is one card found by either wording. Embedding a term takes a
tenth of a second or more, so compiling only attaches the vectors already known
(`TermVectors`); the discord layer embeds the rest in a thread of its own and attaches them
with `with_vectors` as they arrive, while the server is answered by names and words meanwhile.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from bot.glossary import Entry, Glossary
from bot.glossary.server_terms import ServerTerm, overlay_target, server_glossary
from bot.search.index import SearchIndex
from bot.search.semantic.term_vectors import TermVectors
from bot.search.semantic.vectors import Vectors, description_text
from bot.search.server_aliases import NO_ALIASES, ServerAliases


@dataclass(frozen=True)
class LocalGlossary:
    glossary: Glossary
    index: SearchIndex
    aliases: ServerAliases
    terms: tuple[ServerTerm, ...]  # as read from the store
    base: SearchIndex  # the bundled index this was built on (a glossary reload makes another)
    # The server's texts to embed, with the position of the card each belongs to: a term's
    # title, summary and definition, as for bundled entries, and its definition alone (a
    # server's own coinage means nothing to the model, and diluted the rest: on six terms
    # described in other words, the cosine went from 0.46 to 0.52 on average); how many of them
    # the meaning stage holds.
    texts: tuple[tuple[int, str], ...] = ()
    embedded: int = 0
    # The cache key of each row of the meaning stage's own vectors, in their order.
    row_keys: tuple[bytes, ...] = ()
    # A term that words a bundled entry shows as that entry's card, under the entry's id, while
    # its own id (which aliases point at) stays across edits: term id -> card id, where they differ.
    card_ids: Mapping[str, str] = field(default_factory=dict)

    def card_id(self, entry_id: str) -> str:
        """The id of the card an alias's entry id opens."""
        return self.card_ids.get(entry_id, entry_id)

    def entry(self, entry_id: str) -> Entry | None:
        """The card an alias's entry id opens, if any."""
        return self.glossary.get(self.card_id(entry_id))

    def held(self) -> dict[bytes, Vectors]:
        """The vectors its meaning stage holds of its texts, by cache key (views of its rows)."""
        semantic = self.index.semantic
        if not self.row_keys or semantic is None:
            return {}
        return dict(zip(self.row_keys, semantic.vectors, strict=True))

    def waiting(self, vectors: TermVectors) -> list[str]:
        """Its texts that its meaning stage lacks, each once."""
        held = set(self.row_keys)
        return list(dict.fromkeys(t for _, t in self.texts if vectors.key(t) not in held))

    @property
    def complete(self) -> bool:
        """Does the meaning stage hold every text of this server's terms (or is there none)?"""
        return self.base.semantic is None or self.embedded == len(self.texts)


def compile_local(
    bundled: Glossary,
    base: SearchIndex,
    terms: Sequence[ServerTerm],
    aliases: Mapping[str, str],
    previous: LocalGlossary | None = None,
    vectors: TermVectors | None = None,
) -> LocalGlossary:
    """The server's glossary, index and aliases; parts of `previous` that did not change are
    kept (a change of aliases alone does not index the glossary again). The terms' vectors
    `vectors` knows join the meaning stage."""
    terms = tuple(terms)
    local: LocalGlossary
    if previous is not None and previous.base is base and previous.terms == terms:
        local = previous
    elif terms:
        glossary = server_glossary(bundled, terms)
        index = SearchIndex.build(glossary, semantic=base.semantic or False, reference=base)
        texts = tuple(
            (position, text)
            for position, entry in enumerate(glossary)
            if entry.worded_by_server
            for text in dict.fromkeys((description_text(entry), entry.definition))
        )
        card_ids = {
            t.id: target.id
            for t in terms
            if (target := overlay_target(t, bundled)) is not None and target.id != t.id
        }
        local = LocalGlossary(glossary, index, NO_ALIASES, terms, base, texts, card_ids=card_ids)
    else:
        local = LocalGlossary(bundled, base, NO_ALIASES, terms, base)
    if vectors is not None:
        # What the previous stage held of texts still here stays too: rebuilt from the cache
        # alone, a change of one term embedded again every text of the server the cache had let
        # go of (a server with more texts than it keeps, or a dozen full servers).
        kept = previous.held() if previous is not None and previous.base is base else {}
        local = with_vectors(local, vectors, kept if local is not previous else {})
    # The same positions (a meaning stage attached keeps them): compiled aliases still serve.
    if local.aliases.source == aliases and local.aliases.positions is local.index.positions:
        return local
    if not aliases:
        return replace(local, aliases=NO_ALIASES)
    compiled = ServerAliases(aliases, local.index.positions, local.card_ids)
    return replace(local, aliases=compiled)


def with_vectors(
    local: LocalGlossary, vectors: TermVectors, kept: Mapping[bytes, Vectors] | None = None
) -> LocalGlossary:
    """`local` with every vector `vectors` knows of its terms in its meaning stage (itself if
    that adds none); `kept`: vectors by cache key held elsewhere (the stage it replaces)."""
    bundled = local.base.semantic
    if bundled is None or not local.texts:
        return local
    keys = [vectors.key(text) for _, text in local.texts]
    # The rows the stage holds stay, whatever the cache let go of since: it keeps the newest
    # vectors of every server together (`TermVectors.kept`), and a server with more texts than
    # that, built from it alone, lost its first texts to its next ones and embedded them again
    # in turn, for ever.
    held = {**(kept or {}), **local.held()}
    known = {**vectors.vectors(k for k in keys if k not in held), **held}
    rows = [
        (position, key)
        for (position, _), key in zip(local.texts, keys, strict=True)
        if key in known
    ]
    if len(rows) == local.embedded:
        return local
    matrix = (
        np.stack([known[k] for _, k in rows]).astype(np.float32, copy=False)
        if rows
        else np.zeros((0, bundled.encoder.dimensions), dtype=np.float32)
    )
    owners = np.asarray([p for p, _ in rows], dtype=np.int32)
    index = local.index.with_semantic(bundled.joined(matrix, owners))
    return replace(local, index=index, embedded=len(rows), row_keys=tuple(k for _, k in rows))
