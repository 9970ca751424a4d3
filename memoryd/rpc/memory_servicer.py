"""MemoryService over gRPC: decode, one service call, encode. No logic lives here."""

from __future__ import annotations

from memoryd.app import App
from memoryd.core.errors import InvalidRequest, PermissionDenied
from memoryd.core.keys import Role
from memoryd.core.models import ListQuery, RankingMode, RecallArms, RecallQuery
from memoryd.rpc import convert
from memoryd.rpc._gen.memoryd.v1 import memory_pb2 as pb
from memoryd.rpc._gen.memoryd.v1 import memory_pb2_grpc as pb_grpc
from memoryd.rpc.convert.recall import recall_trace
from memoryd.rpc.identity import Ctx, actor, principal
from memoryd.rpc.status import translated


class MemoryServicer(pb_grpc.MemoryServiceServicer):
    """Thin shell over ``App`` services."""

    def __init__(self, app: App) -> None:
        self._app = app

    @translated
    async def Memorize(self, request: pb.MemorizeRequest, context: Ctx) -> pb.MemorizeResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        result = await self._app.memory.memorize.memorize(
            who, convert.draft(request.memory, "memory"), request.request_id
        )
        self._app.metrics.memorized(0 if result.deduplicated else 1, 1 if result.deduplicated else 0)
        return pb.MemorizeResponse(memory=convert.memory(result.memory), deduplicated=result.deduplicated)

    @translated
    async def MemorizeBatch(self, request: pb.MemorizeBatchRequest, context: Ctx) -> pb.MemorizeBatchResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        drafts = [convert.draft(item, f"items[{i}]") for i, item in enumerate(request.items)]
        results = await self._app.memory.memorize.memorize_batch(
            who, drafts, request.skip_deduplication, request_id=request.request_id
        )
        merged = sum(r.deduplicated for r in results)
        self._app.metrics.memorized(len(results) - merged, merged)
        return pb.MemorizeBatchResponse(
            results=[pb.MemorizeResponse(memory=convert.memory(r.memory), deduplicated=r.deduplicated) for r in results]
        )

    @translated
    async def Recall(self, request: pb.RecallRequest, context: Ctx) -> pb.RecallResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        query = RecallQuery(
            who,
            request.query,
            request.limit,
            convert.memory_filter(request.filter),
            convert.enum_value(convert.RANKINGS, request.ranking, "ranking") or RankingMode.RELEVANCE,
            request.min_score if request.HasField("min_score") else None,
            request.min_salience,
            tuple(request.query_embedding) if request.query_embedding else None,
            convert.enum_value(convert.ARMS, request.arms, "arms") or RecallArms.BOTH,
            explain=_explained(request),
        )
        answer = await self._app.memory.recall.answer(query)
        self._app.metrics.recalled(len(answer.hits), bool(answer.degraded))
        reply = pb.RecallResponse(degraded=bool(answer.degraded), degraded_reason=answer.degraded)
        for h in answer.hits:
            convert.set_hit(reply.hits.add(), h)
        if answer.trace is not None:
            reply.trace.CopyFrom(recall_trace(answer.trace))
        return reply

    @translated
    async def GetMemory(self, request: pb.GetMemoryRequest, context: Ctx) -> pb.GetMemoryResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        record, annotated_by = await self._app.memory.archive.get_annotated(who, request.memory_id)
        return pb.GetMemoryResponse(memory=convert.memory(record), annotated_by=annotated_by)

    @translated
    async def GetMemoryHistory(self, request: pb.GetMemoryHistoryRequest, context: Ctx) -> pb.GetMemoryHistoryResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        found = await self._app.memory.archive.history(who, request.memory_id)
        return pb.GetMemoryHistoryResponse(
            events=[convert.history_event(e) for e in found.events], servings_total=found.servings_total
        )

    @translated
    async def Feedback(self, request: pb.FeedbackRequest, context: Ctx) -> pb.FeedbackResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        signal = convert.enum_value(convert.SIGNALS, request.signal, "signal")
        record, corrected = await self._app.memory.feedback.feedback(
            who, request.memory_id, signal, request.correction, request.request_id
        )
        reply = pb.FeedbackResponse(memory=convert.memory(record))
        if corrected is not None:
            reply.correction.CopyFrom(convert.memory(corrected))
        return reply

    @translated
    async def AutoFeedback(self, request: pb.AutoFeedbackRequest, context: Ctx) -> pb.AutoFeedbackResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        results = [(r.id, r.used) for r in request.results]
        recorded = await self._app.memory.feedback.auto_feedback(who, results, request.request_id)
        return pb.AutoFeedbackResponse(recorded=recorded)

    @translated
    async def UpdateMemory(self, request: pb.UpdateMemoryRequest, context: Ctx) -> pb.UpdateMemoryResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        record = await self._app.memory.archive.update(who, request.memory_id, convert.patch(request))
        return pb.UpdateMemoryResponse(memory=convert.memory(record))

    @translated
    async def Forget(self, request: pb.ForgetRequest, context: Ctx) -> pb.ForgetResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        return pb.ForgetResponse(memory_id=await self._app.memory.archive.forget(who, request.memory_id))

    @translated
    async def RestoreMemory(self, request: pb.RestoreMemoryRequest, context: Ctx) -> pb.RestoreMemoryResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        return pb.RestoreMemoryResponse(
            memory=convert.memory(await self._app.memory.archive.restore(who, request.memory_id))
        )

    @translated
    async def ListMemories(self, request: pb.ListMemoriesRequest, context: Ctx) -> pb.ListMemoriesResponse:
        """See the proto."""
        who = actor(context, request.agent_id, request.end_user_id)
        after = convert.decode_page_token(request.page_token, request.filter)
        page = await self._app.memory.archive.list_memories(
            ListQuery(who, convert.memory_filter(request.filter), request.page_size or 50, after)
        )
        reply = pb.ListMemoriesResponse(next_page_token=convert.encode_page_token(page.next_after_id, request.filter))
        for m in page.memories:
            convert.set_memory(reply.memories.add(), m)
        return reply


def _explained(request: pb.RecallRequest) -> tuple[str, ...] | None:
    """The ids a traced Recall accounts for (None: no trace); a trace is for operators and above."""
    if not request.explain:
        if request.explain_ids:
            raise InvalidRequest("explain_ids", "needs explain")
        return None
    if principal().role < Role.OPERATOR:
        raise PermissionDenied(f"explain: a Recall's trace is for operators; this key is {principal().role.label}")
    return tuple(request.explain_ids)
