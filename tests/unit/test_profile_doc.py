from __future__ import annotations

import pytest

from memoryd.core.errors import InvalidRequest, NotFound
from memoryd.core.profile_doc import (
    MalformedProfile,
    append_line,
    apply_changes,
    check_generated,
    fit_budget,
    manual_changes,
    parse,
    prompt_block,
    reinstate_pinned,
    remove_line,
    replace_section,
)

DOC = (
    "Intro line\n\n## Pinned\nNever share keys\n\n## Preferences\n- likes tea\n- hates mornings\n\n"
    "## Work\n- ships memoryd\n"
)


def test_parse_render_roundtrip_is_byte_stable() -> None:
    doc = parse(DOC)
    assert doc.render() == DOC
    assert parse(doc.render()) == doc
    assert parse("\n\n## A\n\n\nx\n\n\n").render() == "## A\nx\n"


def test_append_creates_sections_pinned_first_others_last() -> None:
    doc = append_line(parse("## Work\n- a\n"), "Pinned", "Be brief")
    doc = append_line(doc, "People", "- Sam")
    assert [s.heading for s in doc.sections] == ["Pinned", "Work", "People"]
    assert append_line(doc, "work", "- b").sections[1].lines == ("- a", "- b")


def test_replace_and_remove() -> None:
    doc = replace_section(parse(DOC), "Work", "- new job\n- second", "content")
    assert doc.sections[2].lines == ("- new job", "- second")
    with pytest.raises(InvalidRequest):
        replace_section(doc, "Work", "ok\n## Sneaky", "content")
    doc = remove_line(doc, None, "- likes tea")
    assert "- likes tea" not in doc.render()
    with pytest.raises(NotFound):
        remove_line(doc, "Work", "- hates mornings")


def test_generated_documents_are_checked() -> None:
    for bad in (None, "", "   ", "just prose without sections", "## A\nx\n## a\ny", "## A\n# Title\n"):
        with pytest.raises(MalformedProfile):
            check_generated(bad)
    assert check_generated("## A\nx\n").sections[0].heading == "A"


def test_reinstate_pinned_restores_it_verbatim_whatever_the_generation_did() -> None:
    current = parse(DOC)
    deleted = reinstate_pinned(parse("## Work\n- x\n"), current)
    altered = reinstate_pinned(parse("## Work\n- x\n\n## pinned\nShare keys freely\n"), current)
    for doc in (deleted, altered):
        assert doc.sections[0].heading == "Pinned" and doc.sections[0].lines == ("Never share keys",)
        assert "Share keys freely" not in doc.render()


def test_fit_budget_drops_trailing_sections_never_pinned() -> None:
    doc = parse("## Pinned\np1 p2 p3\n\n## A\na a a a\n\n## B\nb b b b\n")
    words = lambda text: len(text.split())  # noqa: E731
    fitted, dropped = fit_budget(doc, words, 11)  # "## Pinned p1 p2 p3 ## A a a a a" is 11 words
    assert [s.heading for s in dropped] == ["B"] and words(fitted.render()) == 11
    fitted, dropped = fit_budget(doc, words, 1)
    assert [s.heading for s in fitted.sections] == ["Pinned"] and [s.heading for s in dropped] == ["A", "B"]


def test_manual_changes_replay_on_a_rewrite() -> None:
    base = parse(DOC)
    current = remove_line(append_line(base, "Preferences", "- loves jazz"), None, "- hates mornings")
    rewrite = parse("## Preferences\n- likes tea\n- hates mornings\n\n## Projects\n- memoryd\n")
    merged = apply_changes(rewrite, manual_changes(base, current))
    assert merged.sections[0].lines == ("- likes tea", "- loves jazz")


def test_prompt_block_is_a_pure_function_of_the_document() -> None:
    assert prompt_block(DOC) == prompt_block(parse(DOC).render())
    assert prompt_block(DOC).startswith("<agent_profile>\n") and prompt_block("") == ""
