"""Converters of the audit service's messages (``audit_servicer``: decode → call → encode)."""

from __future__ import annotations

from memoryd.core.provenance import Serving
from memoryd.core.review import Action, Finding, FindingKind, FindingSource, FindingStatus, Review
from memoryd.core.usage import UsageReport
from memoryd.rpc._gen.memoryd.v1 import audit_pb2 as apb

KINDS = {
    FindingKind.DUPLICATE: apb.FINDING_KIND_DUPLICATE,
    FindingKind.CONTRADICTION: apb.FINDING_KIND_CONTRADICTION,
    FindingKind.STALE: apb.FINDING_KIND_STALE,
    FindingKind.CLUTTER: apb.FINDING_KIND_CLUTTER,
    FindingKind.DISPUTED: apb.FINDING_KIND_DISPUTED,
}
ACTIONS = {
    Action.MERGE: apb.FINDING_ACTION_MERGE,
    Action.UPDATE: apb.FINDING_ACTION_UPDATE,
    Action.ARCHIVE: apb.FINDING_ACTION_ARCHIVE,
    Action.KEEP: apb.FINDING_ACTION_KEEP,
}
STATUSES = {
    FindingStatus.PROPOSED: apb.FINDING_STATUS_PROPOSED,
    FindingStatus.APPLIED: apb.FINDING_STATUS_APPLIED,
    FindingStatus.REJECTED: apb.FINDING_STATUS_REJECTED,
}
SOURCES = {FindingSource.RULES: apb.FINDING_SOURCE_RULES, FindingSource.MODEL: apb.FINDING_SOURCE_MODEL}


def finding(f: Finding) -> apb.Finding:
    """A Finding as a message."""
    return apb.Finding(
        finding_id=f.finding_id,
        kind=KINDS[f.kind],
        memory_ids=list(f.memory_ids),
        reason=f.reason,
        action=ACTIONS[f.action],
        source=SOURCES[f.source],
        survivor_id=f.survivor_id,
        text=f.text,
        certain=f.certain,
        status=STATUSES[f.status],
        outcome=f.outcome,
    )


def review(r: Review) -> apb.Review:
    """A Review as a message."""
    return apb.Review(
        review_id=r.review_id,
        agent_id=r.agent_id,
        archive_version=r.archive_version,
        memories_reviewed=r.memories_reviewed,
        counts=r.counts,
        model=r.model,
        model_calls=r.model_calls,
        tokens_in=r.tokens_in,
        tokens_out=r.tokens_out,
        created_at=r.created_at,
        finished_at=r.finished_at,
    )


def usage(u: UsageReport) -> apb.UsageReport:
    """A UsageReport as a message."""
    return apb.UsageReport(
        memories=u.memories,
        by_scope=u.by_scope,
        by_type=u.by_type,
        by_status=u.by_status,
        growth=[apb.DayCount(day=d, created=n) for d, n in u.growth],
        never_retrieved_share=u.never_retrieved_share,
        retrievals=u.retrievals,
        injections=u.injections,
        top1pct_share=u.top1pct_share,
        top10_share=u.top10_share,
        gini=u.gini,
        age_days=[apb.Bucket(label=label, count=n) for label, n in u.age_days],
        salience=[apb.Bucket(label=label, count=n) for label, n in u.salience],
        duplicate_share=u.duplicate_share,
        agents=[
            apb.AgentUsage(
                agent_id=a.agent_id,
                memories=a.memories,
                retrievals=a.retrievals,
                never_retrieved_share=a.never_retrieved_share,
            )
            for a in u.agents
        ],
        concentration_alarm=bool(u.alarms),
        alarms=list(u.alarms),
        seconds=u.seconds,
        lorenz=[apb.LorenzPoint(memories_share=x, retrievals_share=y) for x, y in u.lorenz],
        feedback=dict(u.feedback),
        by_collection=dict(u.by_collection),
        computed_at=u.computed_at,
    )


def serving(s: Serving) -> apb.Serving:
    """One serving of the served log."""
    return apb.Serving(
        serving_id=s.serving_id,
        at=s.at,
        item_id=s.item_id,
        item_kind=s.item_kind.value,
        agent_id=s.agent_id,
        end_user_id=s.end_user_id,
        key_id=s.key_id,
        role=s.role,
        via=s.via,
        conversation_id=s.conversation_id,
        rank=s.rank,
        score=s.score,
    )
