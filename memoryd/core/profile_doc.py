"""The profile document: Markdown sections, edits, and the guards of automatic rewrites. Pure.

A document is an optional preamble followed by ``## Heading`` sections.
Parsing normalises blank lines (none at the edges of a section, one between
sections), so ``parse(render(d)) == d`` and rendering is byte-for-byte stable.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from memoryd.core.errors import InvalidRequest, NotFound
from memoryd.core.validation import visible

PINNED = "Pinned"
MAX_HEADING_CHARS = 100
MAX_LINE_CHARS = 2000


class MalformedProfile(ValueError):
    """A generated document that cannot replace the current one."""


@dataclass(frozen=True, slots=True)
class Section:
    """One ``## heading`` and its lines."""

    heading: str
    lines: tuple[str, ...] = ()

    @property
    def pinned(self) -> bool:
        """Whether this is the protected ``## Pinned`` section."""
        return self.heading.casefold() == PINNED.casefold()


@dataclass(frozen=True, slots=True)
class Document:
    """A parsed profile."""

    preamble: tuple[str, ...] = ()
    sections: tuple[Section, ...] = ()

    def find(self, heading: str) -> int | None:
        """Index of the section with this heading (case-insensitive), or None."""
        key = heading.strip().casefold()
        return next((i for i, s in enumerate(self.sections) if s.heading.casefold() == key), None)

    def render(self) -> str:
        """The Markdown text."""
        parts = ["\n".join(self.preamble)] if self.preamble else []
        parts += ["\n".join([f"## {s.heading}", *s.lines]) for s in self.sections]
        return "\n\n".join(parts) + ("\n" if parts else "")


def _trim(lines: list[str]) -> tuple[str, ...]:
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    return tuple(line.rstrip() for line in lines)


def parse(text: str) -> Document:
    """Parse Markdown into preamble and sections."""
    preamble: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    for raw in text.replace("\r\n", "\n").split("\n"):
        if raw.startswith("## "):
            sections.append((raw[3:].strip(), []))
        elif sections:
            sections[-1][1].append(raw)
        else:
            preamble.append(raw)
    return Document(_trim(preamble), tuple(Section(h, _trim(body)) for h, body in sections))


# -- manual edits ------------------------------------------------------------------------------


def check_heading(heading: str, field: str) -> str:
    """A usable section heading."""
    heading = heading.strip()
    if not visible(heading) or len(heading) > MAX_HEADING_CHARS or "\n" in heading or heading.startswith("#"):
        raise InvalidRequest(field, f"must be 1-{MAX_HEADING_CHARS} chars, one line, not starting with '#'")
    return heading


def check_line(line: str, field: str) -> str:
    """A usable body line (one line, not a heading)."""
    if not visible(line) or "\n" in line or "\r" in line:  # a zero-width space alone was a line nobody reads
        raise InvalidRequest(field, "must be one non-empty line")
    if len(line) > MAX_LINE_CHARS:
        raise InvalidRequest(field, f"is {len(line)} chars; the limit is {MAX_LINE_CHARS}")
    if line.lstrip().startswith("#"):
        raise InvalidRequest(field, "must not be a Markdown heading")
    return line.rstrip()


def _put(doc: Document, heading: str, make: Callable[[Section], Section]) -> Document:
    sections = list(doc.sections)
    index = doc.find(heading)
    if index is None:
        new = make(Section(heading))
        sections.insert(0, new) if new.pinned else sections.append(new)
    else:
        sections[index] = make(sections[index])
    return replace(doc, sections=tuple(sections))


def append_line(doc: Document, heading: str, line: str) -> Document:
    """Add a line at the end of a section, creating it (Pinned first, others last)."""
    return _put(doc, heading, lambda s: replace(s, lines=(*s.lines, line)))


def replace_section(doc: Document, heading: str, content: str, field: str) -> Document:
    """Replace a section body with ``content`` (lines; no headings)."""
    body = _trim(content.replace("\r\n", "\n").split("\n"))
    for i, line in enumerate(body):
        if line.lstrip().startswith("#"):
            raise InvalidRequest(field, f"line {i + 1} is a Markdown heading; sections are edited one at a time")
    return _put(doc, heading, lambda s: replace(s, lines=body))


def remove_line(doc: Document, heading: str | None, line: str) -> Document:
    """Remove the first line equal to ``line`` (optionally within one section); NotFound if absent."""
    target = line.rstrip()
    for i, section in enumerate(doc.sections):
        if heading is not None and section.heading.casefold() != heading.casefold():
            continue
        if target in section.lines:
            lines = list(section.lines)
            lines.remove(target)
            sections = list(doc.sections)
            sections[i] = replace(section, lines=tuple(lines))
            return replace(doc, sections=tuple(sections))
    where = f"section {heading!r}" if heading is not None else "the profile"
    raise NotFound(f"line {target!r} is not in {where}")


# -- automatic rewrites ------------------------------------------------------------------------


def check_generated(text: str | None) -> Document:
    """The generated document, or MalformedProfile saying why it cannot be used."""
    if text is None or not text.strip():
        raise MalformedProfile("the generated profile is missing or empty")
    doc = parse(text)
    if not doc.sections:
        raise MalformedProfile("the generated profile has no '## ' sections")
    seen: set[str] = set()
    for section in doc.sections:
        key = section.heading.casefold()
        if not section.heading or key in seen:
            raise MalformedProfile(f"section heading {section.heading!r} is empty or repeated")
        seen.add(key)
        if any(line.lstrip().startswith("# ") for line in section.lines):
            raise MalformedProfile(f"section {section.heading!r} contains a top-level '# ' heading")
    return doc


def reinstate_pinned(generated: Document, current: Document) -> Document:
    """The generated document with ``## Pinned`` replaced by the current one, verbatim, at the top."""
    others = tuple(s for s in generated.sections if not s.pinned)
    index = current.find(PINNED)
    pinned = (current.sections[index],) if index is not None else ()
    return replace(generated, sections=pinned + others)


@dataclass(frozen=True, slots=True)
class LineChange:
    """One line added to or removed from a section by a manual edit."""

    heading: str
    line: str
    added: bool


def manual_changes(base: Document, current: Document) -> list[LineChange]:
    """The line-level changes between two revisions (outside Pinned, which is reinstated whole)."""
    changes: list[LineChange] = []
    headings = [s.heading for s in current.sections] + [s.heading for s in base.sections]
    for heading in dict.fromkeys(h.casefold() for h in headings):
        b, c = base.find(heading), current.find(heading)
        old = base.sections[b] if b is not None else None
        new = current.sections[c] if c is not None else None
        section = new or old
        if section is None or section.pinned:
            continue
        name = section.heading
        before = Counter(old.lines if old else ())
        after = Counter(new.lines if new else ())
        changes += [LineChange(name, line, True) for line in (after - before).elements()]
        changes += [LineChange(name, line, False) for line in (before - after).elements()]
    return changes


def apply_changes(doc: Document, changes: Sequence[LineChange]) -> Document:
    """Replay manual changes on a rewritten document (a removed line that is gone already is fine)."""
    for change in changes:
        if change.added:
            index = doc.find(change.heading)
            if index is None or change.line not in doc.sections[index].lines:
                doc = append_line(doc, change.heading, change.line)
        else:
            with contextlib.suppress(NotFound):  # the rewrite dropped it already
                doc = remove_line(doc, change.heading, change.line)
    return doc


def fit_budget(doc: Document, count: Callable[[str], int], budget: int) -> tuple[Document, list[Section]]:
    """Drop whole trailing sections (never Pinned) until the document fits; return what was dropped."""
    dropped: list[Section] = []
    sections = list(doc.sections)
    while count(replace(doc, sections=tuple(sections)).render()) > budget:
        index = next((i for i in range(len(sections) - 1, -1, -1) if not sections[i].pinned), None)
        if index is None:
            break  # only Pinned is left; manual edits keep Pinned within budget
        dropped.insert(0, sections.pop(index))
    return replace(doc, sections=tuple(sections)), dropped


def vanished_lines(before: Document, after: Document) -> list[tuple[str, str]]:
    """The lines of ``before`` that ``after`` holds nowhere (any section, bullets aside), with their heading.

    What an automatic rewrite left out without demoting it: it is filed into the archive as a
    demoted line is, never simply gone (a reworded line is filed too; words make texts different).
    """
    held = {bare_line(line) for s in after.sections for line in s.lines} | set(map(bare_line, after.preamble))
    lines = [("", line) for line in before.preamble] + [(s.heading, line) for s in before.sections for line in s.lines]
    return [(heading, line) for heading, line in lines if (text := bare_line(line)) and text not in held]


def bare_line(line: str) -> str:
    """A line's text, its bullet aside ("- likes tea" → "likes tea"; a bare bullet → "")."""
    return line.strip().lstrip("-* ").strip()


def prompt_block(document: str) -> str:
    """The exact text for the cached system-prompt prefix: a pure function of the document."""
    if not document.strip():
        return ""
    return f"<agent_profile>\n{document.rstrip()}\n</agent_profile>\n"
