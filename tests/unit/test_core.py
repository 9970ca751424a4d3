from __future__ import annotations

import math
import random
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from memoryd.core.calibration import calibration_for
from memoryd.core.errors import InvalidRequest
from memoryd.core.ids import new_memory_id
from memoryd.core.models import Actor, ArmHit, MemoryDraft, MemoryRecord, Scope
from memoryd.core.query_terms import full_text_query, index_text, word_prefixes, words
from memoryd.core.ranking import FusionWeights, attach, composite, fuse
from memoryd.core.usage import gini, gini_of_histogram, lorenz_of_histogram
from memoryd.core.validation import Limits, check_draft
from memoryd.core.visibility import is_visible, may_modify
from tests.fakes import memory_record

NOW = datetime(2026, 5, 1, tzinfo=UTC)


def rec(
    mid: str,
    *,
    scope: Scope = Scope.PRIVATE,
    agent: str = "a1",
    end_user: str = "",
    tenant: str = "t1",
    occurred: datetime = NOW,
    salience: float = 0.3,
) -> MemoryRecord:
    return memory_record(
        mid,
        f"content {mid}",
        scope=scope,
        agent_id=agent,
        end_user_id=end_user,
        tenant_id=tenant,
        occurred_at=occurred,
        salience=salience,
        created_at=NOW,
        updated_at=NOW,
    )


def test_ids_sort_by_creation_time() -> None:
    first = new_memory_id(1_700_000_000_000, 2**73)
    later = new_memory_id(1_700_000_000_001, 0)
    assert len(first) == 32 and first < later


def arm(r: MemoryRecord, score: float) -> ArmHit:
    return ArmHit(r.memory_id, score, r.occurred_at)


def test_fuse_rewards_agreement_and_reports_parts() -> None:
    a, b, c = rec("a"), rec("b"), rec("c")
    hits = fuse([arm(a, 0.9), arm(b, 0.8)], [arm(b, 5.0), arm(c, 4.0)], FusionWeights(60, 1.0, 1.0))
    assert [h.memory_id for h in hits] == ["b", "a", "c"]
    top = hits[0]
    assert top.vector_rank == 2 and top.full_text_rank == 1
    assert top.score == pytest.approx(1 / 62 + 1 / 61)
    assert hits[1].full_text_rank == 0 and hits[1].full_text_contribution == 0


def test_fuse_full_text_weight_half_lets_vector_dominate() -> None:
    a, c = rec("a"), rec("c")
    hits = fuse([arm(a, 0.9)], [arm(c, 4.0)], FusionWeights(60, 1.0, 0.5))
    assert [h.memory_id for h in hits] == ["a", "c"]


def test_fuse_breaks_ties_by_recency() -> None:
    old, new = rec("old", occurred=NOW - timedelta(days=3)), rec("new", occurred=NOW)
    hits = fuse([arm(old, 0.9)], [arm(new, 3.0)], FusionWeights())
    assert [h.memory_id for h in hits] == ["new", "old"]


def test_attach_drops_candidates_deleted_meanwhile() -> None:
    a, b = rec("a"), rec("b")
    fused = fuse([arm(a, 0.9), arm(b, 0.8)], [], FusionWeights())
    assert [h.memory.memory_id for h in attach(fused, {"b": b}, (), calibration_for(""))] == ["b"]


def test_composite_prefers_salient_recent_and_filters() -> None:
    fresh = rec("fresh", salience=0.9)
    stale = rec("stale", salience=0.9, occurred=NOW - timedelta(days=400))
    fused = fuse([arm(stale, 0.9), arm(fresh, 0.8)], [], FusionWeights())
    hits = attach(fused, {"fresh": fresh, "stale": stale}, (), calibration_for(""))
    ranked = composite(hits, NOW)
    assert ranked[0].memory.memory_id == "fresh" and ranked[0].parts.composite == ranked[0].score
    assert composite(hits, NOW, min_score=0.99) == []


def test_query_terms_are_plain_words_without_syntax() -> None:
    q = full_text_query('"What did Caroline find" AND -espres* OR (walk)?')
    assert q.terms == ("caroline", "find", "espres", "walk")
    assert "espres" in q.prefix_terms
    assert full_text_query("the and of ?!").terms == ()


def test_chinese_runs_become_character_pairs_and_accents_fold_in_queries_and_the_index() -> None:
    assert full_text_query("王芳住在哪个城市？").terms == ("王芳", "芳住", "住在", "在哪", "哪个", "个城", "城市")
    assert words("猫 iPhone15の写真 Málaga Straße") == ["猫", "iphone15", "の写", "写真", "malaga", "strasse"]
    indexed = index_text("王芳: 我搬到了杭州 café")
    assert indexed.split() == ["王芳", ":", "我搬", "搬到", "到了", "了杭", "杭州", "café"]  # the index folds café
    assert index_text("Plain English stays as it is.") == "Plain English stays as it is."
    assert words("한국어 단어") == ["한국", "국어", "단어"]


def test_word_prefixes_are_proper_prefixes() -> None:
    assert word_prefixes("Espresso") == "esp espr espre espres espress"
    assert word_prefixes("a cat") == ""


def test_visibility_rules() -> None:
    me = Actor("t1", "a1", "u1")
    assert is_visible(me, rec("p", agent="a1"))
    assert not is_visible(me, rec("p", agent="a2"))
    assert is_visible(me, rec("s", scope=Scope.SHARED, agent="a2"))
    assert is_visible(me, rec("t", scope=Scope.TENANT, agent="a2"))
    assert is_visible(me, rec("e", scope=Scope.END_USER, end_user="u1", agent="a2"))
    assert not is_visible(me, rec("e", scope=Scope.END_USER, end_user="u2"))
    assert not is_visible(Actor("t1", "a1"), rec("e", scope=Scope.END_USER, end_user=""))
    assert not is_visible(me, rec("x", scope=Scope.TENANT, tenant="t2"))
    assert not may_modify(me, rec("s", scope=Scope.SHARED, agent="a2"))
    assert may_modify(me, rec("t", scope=Scope.TENANT, agent="a2"))


@pytest.mark.parametrize(
    ("draft", "field"),
    [
        (MemoryDraft(content="   "), "memory.content"),
        (MemoryDraft(content="x" * 16385), "memory.content"),
        (MemoryDraft(content="\ud800 lone surrogate"), "memory.content"),
        (MemoryDraft(content="ok", tags=tuple(f"t{i}" for i in range(33))), "memory.tags"),
        (MemoryDraft(content="ok", tags=("x" * 65,)), "memory.tags[0]"),
        (MemoryDraft(content="ok", salience=1.5), "memory.salience"),
        (MemoryDraft(content="ok", salience=float("nan")), "memory.salience"),
        (MemoryDraft(content="ok", scope=Scope.END_USER), "end_user_id"),
        (MemoryDraft(content="ok", occurred_at=NOW + timedelta(days=3)), "memory.occurred_at"),
        (MemoryDraft(content="ok", embedding=(0.5, float("nan"), 0.5)), "memory.embedding"),
        (MemoryDraft(content="ok", embedding=(0.5, float("-inf"), 0.5)), "memory.embedding"),
        (MemoryDraft(content="ok", embedding=(float("inf"), float("-inf"))), "memory.embedding"),
    ],
)
def test_check_draft_names_the_field(draft: MemoryDraft, field: str) -> None:
    with pytest.raises(InvalidRequest) as err:
        check_draft(draft, Actor("t1", "a1"), Limits(), NOW)
    assert err.value.field == field


def test_check_draft_drops_duplicate_tags() -> None:
    out = check_draft(MemoryDraft(content="ok", tags=("a", "b", "a")), Actor("t1", "a1"), Limits(), NOW)
    assert out.tags == ("a", "b")


@pytest.mark.parametrize(
    ("question", "statement"),
    [
        ("When did Caroline go to the support group?", "Caroline go to the support group"),
        ("How many times has Mel gone to the beach?", "times has Mel gone to the beach"),
        ("Is Sam vegetarian?", "Sam vegetarian"),
        ("Caroline likes tea", "Caroline likes tea"),
        ("?", "?"),
    ],
)
def test_statement_form_drops_the_interrogative_lead(question: str, statement: str) -> None:
    from memoryd.core.query_terms import statement_form

    assert statement_form(question) == statement


def test_every_memory_status_has_a_wire_value() -> None:
    from memoryd.core.models import MemoryStatus
    from memoryd.rpc.convert import STATUS_PB

    assert set(STATUS_PB) == set(MemoryStatus)


def test_gini_and_lorenz_from_a_histogram_equal_the_sorted_list() -> None:
    rng = random.Random(4)
    for n in (1, 6, 19, 20, 21, 257):
        values = sorted(rng.choice([0, 0, 0, 1, 2, 5, 40]) for _ in range(n))
        histogram = sorted(Counter(values).items())
        assert gini_of_histogram(histogram) == pytest.approx(gini(values))
        total = sum(values)
        if not total:
            assert lorenz_of_histogram(histogram) == ()
            continue
        expected = [(0.0, 0.0)] + [
            (s / 20, sum(values[: s * n // 20]) / total) for s in range(1, 21) if s * n // 20 > (s - 1) * n // 20
        ]
        got = lorenz_of_histogram(histogram)
        assert [x for p in got for x in p] == pytest.approx([x for p in expected for x in p])


def test_a_unit_vector_is_kept_as_given_and_any_other_is_scaled() -> None:
    from memoryd.core.vectors import normalised

    nearly = [0.6 * (1 + 4e-7), 0.8 * (1 + 4e-7)]  # norm 1 + 4e-7: a float32 embedder's unit vector
    assert normalised(nearly, 2, "e") == nearly  # exactly: not moved by a division
    assert normalised([3.0, 4.0], 2, "e") == [0.6, 0.8]
    for bad, why in [([0.0, 0.0], "non-zero"), ([float("nan"), 1.0], "non-zero"), ([1.0], "dimensions")]:
        with pytest.raises(InvalidRequest, match=why):
            normalised(bad, 2, "e")


def test_a_reembed_progress_line_before_any_row_is_stored_has_no_eta() -> None:
    from memoryd.commands.reembed import progress_line
    from memoryd.services.reembed import Progress

    line = progress_line(Progress("t-b", 148, 300, 96.2, 2.6, 48, 100))
    assert line == "t-b: 48/100 rows · all tenants 148/300, 96 rows/s, ETA 3 s"  # its own rows, then the run's
    line = progress_line(Progress("t-a", 0, 300, 0.0, math.inf, 0, 200))
    assert line == "t-a: 0/200 rows · all tenants 0/300, 0 rows/s, ETA unknown"
