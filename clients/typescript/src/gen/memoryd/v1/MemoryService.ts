// Original file: ../../proto/memoryd/v1/memory.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AutoFeedbackRequest as _memoryd_v1_AutoFeedbackRequest, AutoFeedbackRequest__Output as _memoryd_v1_AutoFeedbackRequest__Output } from '../../memoryd/v1/AutoFeedbackRequest';
import type { AutoFeedbackResponse as _memoryd_v1_AutoFeedbackResponse, AutoFeedbackResponse__Output as _memoryd_v1_AutoFeedbackResponse__Output } from '../../memoryd/v1/AutoFeedbackResponse';
import type { FeedbackRequest as _memoryd_v1_FeedbackRequest, FeedbackRequest__Output as _memoryd_v1_FeedbackRequest__Output } from '../../memoryd/v1/FeedbackRequest';
import type { FeedbackResponse as _memoryd_v1_FeedbackResponse, FeedbackResponse__Output as _memoryd_v1_FeedbackResponse__Output } from '../../memoryd/v1/FeedbackResponse';
import type { ForgetRequest as _memoryd_v1_ForgetRequest, ForgetRequest__Output as _memoryd_v1_ForgetRequest__Output } from '../../memoryd/v1/ForgetRequest';
import type { ForgetResponse as _memoryd_v1_ForgetResponse, ForgetResponse__Output as _memoryd_v1_ForgetResponse__Output } from '../../memoryd/v1/ForgetResponse';
import type { GetMemoryHistoryRequest as _memoryd_v1_GetMemoryHistoryRequest, GetMemoryHistoryRequest__Output as _memoryd_v1_GetMemoryHistoryRequest__Output } from '../../memoryd/v1/GetMemoryHistoryRequest';
import type { GetMemoryHistoryResponse as _memoryd_v1_GetMemoryHistoryResponse, GetMemoryHistoryResponse__Output as _memoryd_v1_GetMemoryHistoryResponse__Output } from '../../memoryd/v1/GetMemoryHistoryResponse';
import type { GetMemoryRequest as _memoryd_v1_GetMemoryRequest, GetMemoryRequest__Output as _memoryd_v1_GetMemoryRequest__Output } from '../../memoryd/v1/GetMemoryRequest';
import type { GetMemoryResponse as _memoryd_v1_GetMemoryResponse, GetMemoryResponse__Output as _memoryd_v1_GetMemoryResponse__Output } from '../../memoryd/v1/GetMemoryResponse';
import type { ListMemoriesRequest as _memoryd_v1_ListMemoriesRequest, ListMemoriesRequest__Output as _memoryd_v1_ListMemoriesRequest__Output } from '../../memoryd/v1/ListMemoriesRequest';
import type { ListMemoriesResponse as _memoryd_v1_ListMemoriesResponse, ListMemoriesResponse__Output as _memoryd_v1_ListMemoriesResponse__Output } from '../../memoryd/v1/ListMemoriesResponse';
import type { MemorizeBatchRequest as _memoryd_v1_MemorizeBatchRequest, MemorizeBatchRequest__Output as _memoryd_v1_MemorizeBatchRequest__Output } from '../../memoryd/v1/MemorizeBatchRequest';
import type { MemorizeBatchResponse as _memoryd_v1_MemorizeBatchResponse, MemorizeBatchResponse__Output as _memoryd_v1_MemorizeBatchResponse__Output } from '../../memoryd/v1/MemorizeBatchResponse';
import type { MemorizeRequest as _memoryd_v1_MemorizeRequest, MemorizeRequest__Output as _memoryd_v1_MemorizeRequest__Output } from '../../memoryd/v1/MemorizeRequest';
import type { MemorizeResponse as _memoryd_v1_MemorizeResponse, MemorizeResponse__Output as _memoryd_v1_MemorizeResponse__Output } from '../../memoryd/v1/MemorizeResponse';
import type { RecallRequest as _memoryd_v1_RecallRequest, RecallRequest__Output as _memoryd_v1_RecallRequest__Output } from '../../memoryd/v1/RecallRequest';
import type { RecallResponse as _memoryd_v1_RecallResponse, RecallResponse__Output as _memoryd_v1_RecallResponse__Output } from '../../memoryd/v1/RecallResponse';
import type { RestoreMemoryRequest as _memoryd_v1_RestoreMemoryRequest, RestoreMemoryRequest__Output as _memoryd_v1_RestoreMemoryRequest__Output } from '../../memoryd/v1/RestoreMemoryRequest';
import type { RestoreMemoryResponse as _memoryd_v1_RestoreMemoryResponse, RestoreMemoryResponse__Output as _memoryd_v1_RestoreMemoryResponse__Output } from '../../memoryd/v1/RestoreMemoryResponse';
import type { UpdateMemoryRequest as _memoryd_v1_UpdateMemoryRequest, UpdateMemoryRequest__Output as _memoryd_v1_UpdateMemoryRequest__Output } from '../../memoryd/v1/UpdateMemoryRequest';
import type { UpdateMemoryResponse as _memoryd_v1_UpdateMemoryResponse, UpdateMemoryResponse__Output as _memoryd_v1_UpdateMemoryResponse__Output } from '../../memoryd/v1/UpdateMemoryResponse';

/**
 * MemoryService stores and searches an agent's archive.
 */
export interface MemoryServiceClient extends grpc.Client {
  /**
   * AutoFeedback reports which recalled memories the runtime used: `used`
   * counts as FEEDBACK_SIGNAL_USED, otherwise FEEDBACK_SIGNAL_UNUSED. Every
   * id must be a full id of a visible memory (NOT_FOUND names the first that
   * is not; nothing is recorded then). At most 100 results. A request_id
   * makes a retry count nothing twice, as for Feedback.
   */
  AutoFeedback(argument: _memoryd_v1_AutoFeedbackRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_AutoFeedbackResponse__Output>): grpc.ClientUnaryCall;
  AutoFeedback(argument: _memoryd_v1_AutoFeedbackRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_AutoFeedbackResponse__Output>): grpc.ClientUnaryCall;
  AutoFeedback(argument: _memoryd_v1_AutoFeedbackRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_AutoFeedbackResponse__Output>): grpc.ClientUnaryCall;
  AutoFeedback(argument: _memoryd_v1_AutoFeedbackRequest, callback: grpc.requestCallback<_memoryd_v1_AutoFeedbackResponse__Output>): grpc.ClientUnaryCall;
  /**
   * AutoFeedback reports which recalled memories the runtime used: `used`
   * counts as FEEDBACK_SIGNAL_USED, otherwise FEEDBACK_SIGNAL_UNUSED. Every
   * id must be a full id of a visible memory (NOT_FOUND names the first that
   * is not; nothing is recorded then). At most 100 results. A request_id
   * makes a retry count nothing twice, as for Feedback.
   */
  autoFeedback(argument: _memoryd_v1_AutoFeedbackRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_AutoFeedbackResponse__Output>): grpc.ClientUnaryCall;
  autoFeedback(argument: _memoryd_v1_AutoFeedbackRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_AutoFeedbackResponse__Output>): grpc.ClientUnaryCall;
  autoFeedback(argument: _memoryd_v1_AutoFeedbackRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_AutoFeedbackResponse__Output>): grpc.ClientUnaryCall;
  autoFeedback(argument: _memoryd_v1_AutoFeedbackRequest, callback: grpc.requestCallback<_memoryd_v1_AutoFeedbackResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Feedback records one signal about a memory (by its full id: a prefix is
   * INVALID_ARGUMENT). Signals are counted per memory in a side table (the
   * memory's row is not rewritten) and shown in `Memory.feedback`; each moves
   * the memory's salience shift by a fixed step (see FeedbackSignal), bounded
   * to [-0.25, +0.25]. The shift is used by RANKING_MODE_SALIENCE_DECAY only:
   * feedback never changes the default relevance ranking. A
   * FEEDBACK_SIGNAL_CORRECTION needs `correction`: the corrected text is
   * memorized (same scope, type, subject, category and tags) and the old
   * memory becomes SUPERSEDED by it, restorable; the caller must be allowed
   * to change the old memory (PERMISSION_DENIED otherwise, nothing written).
   * With a request_id a retry (after a lost reply) counts nothing twice: the
   * signal is recorded once in the memory's history under that id. Without
   * one, a retried call counts again.
   */
  Feedback(argument: _memoryd_v1_FeedbackRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_FeedbackResponse__Output>): grpc.ClientUnaryCall;
  Feedback(argument: _memoryd_v1_FeedbackRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_FeedbackResponse__Output>): grpc.ClientUnaryCall;
  Feedback(argument: _memoryd_v1_FeedbackRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_FeedbackResponse__Output>): grpc.ClientUnaryCall;
  Feedback(argument: _memoryd_v1_FeedbackRequest, callback: grpc.requestCallback<_memoryd_v1_FeedbackResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Feedback records one signal about a memory (by its full id: a prefix is
   * INVALID_ARGUMENT). Signals are counted per memory in a side table (the
   * memory's row is not rewritten) and shown in `Memory.feedback`; each moves
   * the memory's salience shift by a fixed step (see FeedbackSignal), bounded
   * to [-0.25, +0.25]. The shift is used by RANKING_MODE_SALIENCE_DECAY only:
   * feedback never changes the default relevance ranking. A
   * FEEDBACK_SIGNAL_CORRECTION needs `correction`: the corrected text is
   * memorized (same scope, type, subject, category and tags) and the old
   * memory becomes SUPERSEDED by it, restorable; the caller must be allowed
   * to change the old memory (PERMISSION_DENIED otherwise, nothing written).
   * With a request_id a retry (after a lost reply) counts nothing twice: the
   * signal is recorded once in the memory's history under that id. Without
   * one, a retried call counts again.
   */
  feedback(argument: _memoryd_v1_FeedbackRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_FeedbackResponse__Output>): grpc.ClientUnaryCall;
  feedback(argument: _memoryd_v1_FeedbackRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_FeedbackResponse__Output>): grpc.ClientUnaryCall;
  feedback(argument: _memoryd_v1_FeedbackRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_FeedbackResponse__Output>): grpc.ClientUnaryCall;
  feedback(argument: _memoryd_v1_FeedbackRequest, callback: grpc.requestCallback<_memoryd_v1_FeedbackResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Forget deletes one memory for good.
   */
  Forget(argument: _memoryd_v1_ForgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ForgetResponse__Output>): grpc.ClientUnaryCall;
  Forget(argument: _memoryd_v1_ForgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ForgetResponse__Output>): grpc.ClientUnaryCall;
  Forget(argument: _memoryd_v1_ForgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ForgetResponse__Output>): grpc.ClientUnaryCall;
  Forget(argument: _memoryd_v1_ForgetRequest, callback: grpc.requestCallback<_memoryd_v1_ForgetResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Forget deletes one memory for good.
   */
  forget(argument: _memoryd_v1_ForgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ForgetResponse__Output>): grpc.ClientUnaryCall;
  forget(argument: _memoryd_v1_ForgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ForgetResponse__Output>): grpc.ClientUnaryCall;
  forget(argument: _memoryd_v1_ForgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ForgetResponse__Output>): grpc.ClientUnaryCall;
  forget(argument: _memoryd_v1_ForgetRequest, callback: grpc.requestCallback<_memoryd_v1_ForgetResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GetMemory returns one visible memory.
   */
  GetMemory(argument: _memoryd_v1_GetMemoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetMemoryResponse__Output>): grpc.ClientUnaryCall;
  GetMemory(argument: _memoryd_v1_GetMemoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_GetMemoryResponse__Output>): grpc.ClientUnaryCall;
  GetMemory(argument: _memoryd_v1_GetMemoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetMemoryResponse__Output>): grpc.ClientUnaryCall;
  GetMemory(argument: _memoryd_v1_GetMemoryRequest, callback: grpc.requestCallback<_memoryd_v1_GetMemoryResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GetMemory returns one visible memory.
   */
  getMemory(argument: _memoryd_v1_GetMemoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetMemoryResponse__Output>): grpc.ClientUnaryCall;
  getMemory(argument: _memoryd_v1_GetMemoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_GetMemoryResponse__Output>): grpc.ClientUnaryCall;
  getMemory(argument: _memoryd_v1_GetMemoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetMemoryResponse__Output>): grpc.ClientUnaryCall;
  getMemory(argument: _memoryd_v1_GetMemoryRequest, callback: grpc.requestCallback<_memoryd_v1_GetMemoryResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GetMemoryHistory returns every event on one visible memory, oldest first:
   * created (by which key, through which RPC or job, with its request id and
   * source_context), restatements merged into it, updates (with the earlier
   * content and scope), superseded or archived (by which finding of which
   * review, or a feedback correction), restored, feedback signals, and its
   * latest servings (see AuditService.ListServings). The history belongs to
   * the tenant: Forget, retention and erasure remove it with the memory.
   * Events reach the history within a second of their call; a read waits for
   * them. A memory the caller cannot see is NOT_FOUND, as in GetMemory.
   */
  GetMemoryHistory(argument: _memoryd_v1_GetMemoryHistoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetMemoryHistoryResponse__Output>): grpc.ClientUnaryCall;
  GetMemoryHistory(argument: _memoryd_v1_GetMemoryHistoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_GetMemoryHistoryResponse__Output>): grpc.ClientUnaryCall;
  GetMemoryHistory(argument: _memoryd_v1_GetMemoryHistoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetMemoryHistoryResponse__Output>): grpc.ClientUnaryCall;
  GetMemoryHistory(argument: _memoryd_v1_GetMemoryHistoryRequest, callback: grpc.requestCallback<_memoryd_v1_GetMemoryHistoryResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GetMemoryHistory returns every event on one visible memory, oldest first:
   * created (by which key, through which RPC or job, with its request id and
   * source_context), restatements merged into it, updates (with the earlier
   * content and scope), superseded or archived (by which finding of which
   * review, or a feedback correction), restored, feedback signals, and its
   * latest servings (see AuditService.ListServings). The history belongs to
   * the tenant: Forget, retention and erasure remove it with the memory.
   * Events reach the history within a second of their call; a read waits for
   * them. A memory the caller cannot see is NOT_FOUND, as in GetMemory.
   */
  getMemoryHistory(argument: _memoryd_v1_GetMemoryHistoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetMemoryHistoryResponse__Output>): grpc.ClientUnaryCall;
  getMemoryHistory(argument: _memoryd_v1_GetMemoryHistoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_GetMemoryHistoryResponse__Output>): grpc.ClientUnaryCall;
  getMemoryHistory(argument: _memoryd_v1_GetMemoryHistoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetMemoryHistoryResponse__Output>): grpc.ClientUnaryCall;
  getMemoryHistory(argument: _memoryd_v1_GetMemoryHistoryRequest, callback: grpc.requestCallback<_memoryd_v1_GetMemoryHistoryResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * ListMemories pages through the visible archive, oldest first.
   */
  ListMemories(argument: _memoryd_v1_ListMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ListMemories(argument: _memoryd_v1_ListMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ListMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ListMemories(argument: _memoryd_v1_ListMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListMemoriesResponse__Output>): grpc.ClientUnaryCall;
  ListMemories(argument: _memoryd_v1_ListMemoriesRequest, callback: grpc.requestCallback<_memoryd_v1_ListMemoriesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * ListMemories pages through the visible archive, oldest first.
   */
  listMemories(argument: _memoryd_v1_ListMemoriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListMemoriesResponse__Output>): grpc.ClientUnaryCall;
  listMemories(argument: _memoryd_v1_ListMemoriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ListMemoriesResponse__Output>): grpc.ClientUnaryCall;
  listMemories(argument: _memoryd_v1_ListMemoriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListMemoriesResponse__Output>): grpc.ClientUnaryCall;
  listMemories(argument: _memoryd_v1_ListMemoriesRequest, callback: grpc.requestCallback<_memoryd_v1_ListMemoriesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Memorize stores one memory and returns it once it is durable.
   * 
   * Routing rule: Should this influence the agent's behaviour in most future
   * conversations, without anyone mentioning it? Yes: put it in the profile.
   * No: memorize it here.
   * 
   * Deduplication. A restatement of a visible memory is not inserted: the
   * reply says `deduplicated = true` with the existing memory. A restatement
   * says the same words in the same order once case, punctuation, articles,
   * contractions and a few fillers are set aside, and lies within the
   * embedder's calibrated cosine distance (MEMORY_DEDUP_DISTANCE overrides).
   * Any other difference, in particular a number, a date or time, a negation
   * or a name, makes a new memory: a correction is never swallowed.
   * Private and shared memories are one pool; tenant and end_user memories
   * are compared only within their own scope. The merge unites the tags and
   * sets updated_at; a memory the caller may not modify (another agent's
   * shared memory) is never changed: it is the twin only if it already holds
   * every tag, otherwise the new memory is stored. The author writing as
   * SCOPE_SHARED a fact it holds privately promotes that memory to shared.
   * 
   * Embedder outage. While the embedder is unreachable the memory is still
   * stored (durable, found by full text at once) with `embedding_pending`
   * set, and without insert-time deduplication, which needs its vector; it is
   * embedded when the embedder is back. (embedding.pending_on_outage = false
   * makes such a write fail UNAVAILABLE instead.)
   */
  Memorize(argument: _memoryd_v1_MemorizeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_MemorizeResponse__Output>): grpc.ClientUnaryCall;
  Memorize(argument: _memoryd_v1_MemorizeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_MemorizeResponse__Output>): grpc.ClientUnaryCall;
  Memorize(argument: _memoryd_v1_MemorizeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_MemorizeResponse__Output>): grpc.ClientUnaryCall;
  Memorize(argument: _memoryd_v1_MemorizeRequest, callback: grpc.requestCallback<_memoryd_v1_MemorizeResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Memorize stores one memory and returns it once it is durable.
   * 
   * Routing rule: Should this influence the agent's behaviour in most future
   * conversations, without anyone mentioning it? Yes: put it in the profile.
   * No: memorize it here.
   * 
   * Deduplication. A restatement of a visible memory is not inserted: the
   * reply says `deduplicated = true` with the existing memory. A restatement
   * says the same words in the same order once case, punctuation, articles,
   * contractions and a few fillers are set aside, and lies within the
   * embedder's calibrated cosine distance (MEMORY_DEDUP_DISTANCE overrides).
   * Any other difference, in particular a number, a date or time, a negation
   * or a name, makes a new memory: a correction is never swallowed.
   * Private and shared memories are one pool; tenant and end_user memories
   * are compared only within their own scope. The merge unites the tags and
   * sets updated_at; a memory the caller may not modify (another agent's
   * shared memory) is never changed: it is the twin only if it already holds
   * every tag, otherwise the new memory is stored. The author writing as
   * SCOPE_SHARED a fact it holds privately promotes that memory to shared.
   * 
   * Embedder outage. While the embedder is unreachable the memory is still
   * stored (durable, found by full text at once) with `embedding_pending`
   * set, and without insert-time deduplication, which needs its vector; it is
   * embedded when the embedder is back. (embedding.pending_on_outage = false
   * makes such a write fail UNAVAILABLE instead.)
   */
  memorize(argument: _memoryd_v1_MemorizeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_MemorizeResponse__Output>): grpc.ClientUnaryCall;
  memorize(argument: _memoryd_v1_MemorizeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_MemorizeResponse__Output>): grpc.ClientUnaryCall;
  memorize(argument: _memoryd_v1_MemorizeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_MemorizeResponse__Output>): grpc.ClientUnaryCall;
  memorize(argument: _memoryd_v1_MemorizeRequest, callback: grpc.requestCallback<_memoryd_v1_MemorizeResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * MemorizeBatch stores up to 1,000 memories for one agent. Validation is
   * all-or-nothing: if any item is invalid nothing is written and the error
   * names the item (`items[3].content`). Success means every row is durable.
   */
  MemorizeBatch(argument: _memoryd_v1_MemorizeBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_MemorizeBatchResponse__Output>): grpc.ClientUnaryCall;
  MemorizeBatch(argument: _memoryd_v1_MemorizeBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_MemorizeBatchResponse__Output>): grpc.ClientUnaryCall;
  MemorizeBatch(argument: _memoryd_v1_MemorizeBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_MemorizeBatchResponse__Output>): grpc.ClientUnaryCall;
  MemorizeBatch(argument: _memoryd_v1_MemorizeBatchRequest, callback: grpc.requestCallback<_memoryd_v1_MemorizeBatchResponse__Output>): grpc.ClientUnaryCall;
  /**
   * MemorizeBatch stores up to 1,000 memories for one agent. Validation is
   * all-or-nothing: if any item is invalid nothing is written and the error
   * names the item (`items[3].content`). Success means every row is durable.
   */
  memorizeBatch(argument: _memoryd_v1_MemorizeBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_MemorizeBatchResponse__Output>): grpc.ClientUnaryCall;
  memorizeBatch(argument: _memoryd_v1_MemorizeBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_MemorizeBatchResponse__Output>): grpc.ClientUnaryCall;
  memorizeBatch(argument: _memoryd_v1_MemorizeBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_MemorizeBatchResponse__Output>): grpc.ClientUnaryCall;
  memorizeBatch(argument: _memoryd_v1_MemorizeBatchRequest, callback: grpc.requestCallback<_memoryd_v1_MemorizeBatchResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Recall searches the visible archive: a vector arm and a full-text arm,
   * fused by weighted reciprocal rank. No language-model call is made. When
   * the arms find fewer than `limit` candidates, the nearest visible memories
   * under the similarity floor fill the rest, after every fused hit, with
   * score 0 (their vector rank and similarity are in `parts`): Recall returns
   * `limit` hits whenever that many memories are visible (unless the full-text
   * arm alone was asked for). With the embedder unreachable the full-text arm
   * answers alone and the reply says `degraded`.
   */
  Recall(argument: _memoryd_v1_RecallRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RecallResponse__Output>): grpc.ClientUnaryCall;
  Recall(argument: _memoryd_v1_RecallRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_RecallResponse__Output>): grpc.ClientUnaryCall;
  Recall(argument: _memoryd_v1_RecallRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RecallResponse__Output>): grpc.ClientUnaryCall;
  Recall(argument: _memoryd_v1_RecallRequest, callback: grpc.requestCallback<_memoryd_v1_RecallResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Recall searches the visible archive: a vector arm and a full-text arm,
   * fused by weighted reciprocal rank. No language-model call is made. When
   * the arms find fewer than `limit` candidates, the nearest visible memories
   * under the similarity floor fill the rest, after every fused hit, with
   * score 0 (their vector rank and similarity are in `parts`): Recall returns
   * `limit` hits whenever that many memories are visible (unless the full-text
   * arm alone was asked for). With the embedder unreachable the full-text arm
   * answers alone and the reply says `degraded`.
   */
  recall(argument: _memoryd_v1_RecallRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RecallResponse__Output>): grpc.ClientUnaryCall;
  recall(argument: _memoryd_v1_RecallRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_RecallResponse__Output>): grpc.ClientUnaryCall;
  recall(argument: _memoryd_v1_RecallRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RecallResponse__Output>): grpc.ClientUnaryCall;
  recall(argument: _memoryd_v1_RecallRequest, callback: grpc.requestCallback<_memoryd_v1_RecallResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * RestoreMemory makes an archived or superseded memory active again (the
   * same rules as UpdateMemory decide who may). Restoring an active memory
   * changes nothing.
   */
  RestoreMemory(argument: _memoryd_v1_RestoreMemoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RestoreMemoryResponse__Output>): grpc.ClientUnaryCall;
  RestoreMemory(argument: _memoryd_v1_RestoreMemoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_RestoreMemoryResponse__Output>): grpc.ClientUnaryCall;
  RestoreMemory(argument: _memoryd_v1_RestoreMemoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RestoreMemoryResponse__Output>): grpc.ClientUnaryCall;
  RestoreMemory(argument: _memoryd_v1_RestoreMemoryRequest, callback: grpc.requestCallback<_memoryd_v1_RestoreMemoryResponse__Output>): grpc.ClientUnaryCall;
  /**
   * RestoreMemory makes an archived or superseded memory active again (the
   * same rules as UpdateMemory decide who may). Restoring an active memory
   * changes nothing.
   */
  restoreMemory(argument: _memoryd_v1_RestoreMemoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RestoreMemoryResponse__Output>): grpc.ClientUnaryCall;
  restoreMemory(argument: _memoryd_v1_RestoreMemoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_RestoreMemoryResponse__Output>): grpc.ClientUnaryCall;
  restoreMemory(argument: _memoryd_v1_RestoreMemoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RestoreMemoryResponse__Output>): grpc.ClientUnaryCall;
  restoreMemory(argument: _memoryd_v1_RestoreMemoryRequest, callback: grpc.requestCallback<_memoryd_v1_RestoreMemoryResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * UpdateMemory changes the fields that are set and leaves the others as
   * they are. A content change re-embeds the memory.
   */
  UpdateMemory(argument: _memoryd_v1_UpdateMemoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_UpdateMemoryResponse__Output>): grpc.ClientUnaryCall;
  UpdateMemory(argument: _memoryd_v1_UpdateMemoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_UpdateMemoryResponse__Output>): grpc.ClientUnaryCall;
  UpdateMemory(argument: _memoryd_v1_UpdateMemoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_UpdateMemoryResponse__Output>): grpc.ClientUnaryCall;
  UpdateMemory(argument: _memoryd_v1_UpdateMemoryRequest, callback: grpc.requestCallback<_memoryd_v1_UpdateMemoryResponse__Output>): grpc.ClientUnaryCall;
  /**
   * UpdateMemory changes the fields that are set and leaves the others as
   * they are. A content change re-embeds the memory.
   */
  updateMemory(argument: _memoryd_v1_UpdateMemoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_UpdateMemoryResponse__Output>): grpc.ClientUnaryCall;
  updateMemory(argument: _memoryd_v1_UpdateMemoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_UpdateMemoryResponse__Output>): grpc.ClientUnaryCall;
  updateMemory(argument: _memoryd_v1_UpdateMemoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_UpdateMemoryResponse__Output>): grpc.ClientUnaryCall;
  updateMemory(argument: _memoryd_v1_UpdateMemoryRequest, callback: grpc.requestCallback<_memoryd_v1_UpdateMemoryResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * MemoryService stores and searches an agent's archive.
 */
export interface MemoryServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * AutoFeedback reports which recalled memories the runtime used: `used`
   * counts as FEEDBACK_SIGNAL_USED, otherwise FEEDBACK_SIGNAL_UNUSED. Every
   * id must be a full id of a visible memory (NOT_FOUND names the first that
   * is not; nothing is recorded then). At most 100 results. A request_id
   * makes a retry count nothing twice, as for Feedback.
   */
  AutoFeedback: grpc.handleUnaryCall<_memoryd_v1_AutoFeedbackRequest__Output, _memoryd_v1_AutoFeedbackResponse>;
  
  /**
   * Feedback records one signal about a memory (by its full id: a prefix is
   * INVALID_ARGUMENT). Signals are counted per memory in a side table (the
   * memory's row is not rewritten) and shown in `Memory.feedback`; each moves
   * the memory's salience shift by a fixed step (see FeedbackSignal), bounded
   * to [-0.25, +0.25]. The shift is used by RANKING_MODE_SALIENCE_DECAY only:
   * feedback never changes the default relevance ranking. A
   * FEEDBACK_SIGNAL_CORRECTION needs `correction`: the corrected text is
   * memorized (same scope, type, subject, category and tags) and the old
   * memory becomes SUPERSEDED by it, restorable; the caller must be allowed
   * to change the old memory (PERMISSION_DENIED otherwise, nothing written).
   * With a request_id a retry (after a lost reply) counts nothing twice: the
   * signal is recorded once in the memory's history under that id. Without
   * one, a retried call counts again.
   */
  Feedback: grpc.handleUnaryCall<_memoryd_v1_FeedbackRequest__Output, _memoryd_v1_FeedbackResponse>;
  
  /**
   * Forget deletes one memory for good.
   */
  Forget: grpc.handleUnaryCall<_memoryd_v1_ForgetRequest__Output, _memoryd_v1_ForgetResponse>;
  
  /**
   * GetMemory returns one visible memory.
   */
  GetMemory: grpc.handleUnaryCall<_memoryd_v1_GetMemoryRequest__Output, _memoryd_v1_GetMemoryResponse>;
  
  /**
   * GetMemoryHistory returns every event on one visible memory, oldest first:
   * created (by which key, through which RPC or job, with its request id and
   * source_context), restatements merged into it, updates (with the earlier
   * content and scope), superseded or archived (by which finding of which
   * review, or a feedback correction), restored, feedback signals, and its
   * latest servings (see AuditService.ListServings). The history belongs to
   * the tenant: Forget, retention and erasure remove it with the memory.
   * Events reach the history within a second of their call; a read waits for
   * them. A memory the caller cannot see is NOT_FOUND, as in GetMemory.
   */
  GetMemoryHistory: grpc.handleUnaryCall<_memoryd_v1_GetMemoryHistoryRequest__Output, _memoryd_v1_GetMemoryHistoryResponse>;
  
  /**
   * ListMemories pages through the visible archive, oldest first.
   */
  ListMemories: grpc.handleUnaryCall<_memoryd_v1_ListMemoriesRequest__Output, _memoryd_v1_ListMemoriesResponse>;
  
  /**
   * Memorize stores one memory and returns it once it is durable.
   * 
   * Routing rule: Should this influence the agent's behaviour in most future
   * conversations, without anyone mentioning it? Yes: put it in the profile.
   * No: memorize it here.
   * 
   * Deduplication. A restatement of a visible memory is not inserted: the
   * reply says `deduplicated = true` with the existing memory. A restatement
   * says the same words in the same order once case, punctuation, articles,
   * contractions and a few fillers are set aside, and lies within the
   * embedder's calibrated cosine distance (MEMORY_DEDUP_DISTANCE overrides).
   * Any other difference, in particular a number, a date or time, a negation
   * or a name, makes a new memory: a correction is never swallowed.
   * Private and shared memories are one pool; tenant and end_user memories
   * are compared only within their own scope. The merge unites the tags and
   * sets updated_at; a memory the caller may not modify (another agent's
   * shared memory) is never changed: it is the twin only if it already holds
   * every tag, otherwise the new memory is stored. The author writing as
   * SCOPE_SHARED a fact it holds privately promotes that memory to shared.
   * 
   * Embedder outage. While the embedder is unreachable the memory is still
   * stored (durable, found by full text at once) with `embedding_pending`
   * set, and without insert-time deduplication, which needs its vector; it is
   * embedded when the embedder is back. (embedding.pending_on_outage = false
   * makes such a write fail UNAVAILABLE instead.)
   */
  Memorize: grpc.handleUnaryCall<_memoryd_v1_MemorizeRequest__Output, _memoryd_v1_MemorizeResponse>;
  
  /**
   * MemorizeBatch stores up to 1,000 memories for one agent. Validation is
   * all-or-nothing: if any item is invalid nothing is written and the error
   * names the item (`items[3].content`). Success means every row is durable.
   */
  MemorizeBatch: grpc.handleUnaryCall<_memoryd_v1_MemorizeBatchRequest__Output, _memoryd_v1_MemorizeBatchResponse>;
  
  /**
   * Recall searches the visible archive: a vector arm and a full-text arm,
   * fused by weighted reciprocal rank. No language-model call is made. When
   * the arms find fewer than `limit` candidates, the nearest visible memories
   * under the similarity floor fill the rest, after every fused hit, with
   * score 0 (their vector rank and similarity are in `parts`): Recall returns
   * `limit` hits whenever that many memories are visible (unless the full-text
   * arm alone was asked for). With the embedder unreachable the full-text arm
   * answers alone and the reply says `degraded`.
   */
  Recall: grpc.handleUnaryCall<_memoryd_v1_RecallRequest__Output, _memoryd_v1_RecallResponse>;
  
  /**
   * RestoreMemory makes an archived or superseded memory active again (the
   * same rules as UpdateMemory decide who may). Restoring an active memory
   * changes nothing.
   */
  RestoreMemory: grpc.handleUnaryCall<_memoryd_v1_RestoreMemoryRequest__Output, _memoryd_v1_RestoreMemoryResponse>;
  
  /**
   * UpdateMemory changes the fields that are set and leaves the others as
   * they are. A content change re-embeds the memory.
   */
  UpdateMemory: grpc.handleUnaryCall<_memoryd_v1_UpdateMemoryRequest__Output, _memoryd_v1_UpdateMemoryResponse>;
  
}

export interface MemoryServiceDefinition extends grpc.ServiceDefinition {
  AutoFeedback: MethodDefinition<_memoryd_v1_AutoFeedbackRequest, _memoryd_v1_AutoFeedbackResponse, _memoryd_v1_AutoFeedbackRequest__Output, _memoryd_v1_AutoFeedbackResponse__Output>
  Feedback: MethodDefinition<_memoryd_v1_FeedbackRequest, _memoryd_v1_FeedbackResponse, _memoryd_v1_FeedbackRequest__Output, _memoryd_v1_FeedbackResponse__Output>
  Forget: MethodDefinition<_memoryd_v1_ForgetRequest, _memoryd_v1_ForgetResponse, _memoryd_v1_ForgetRequest__Output, _memoryd_v1_ForgetResponse__Output>
  GetMemory: MethodDefinition<_memoryd_v1_GetMemoryRequest, _memoryd_v1_GetMemoryResponse, _memoryd_v1_GetMemoryRequest__Output, _memoryd_v1_GetMemoryResponse__Output>
  GetMemoryHistory: MethodDefinition<_memoryd_v1_GetMemoryHistoryRequest, _memoryd_v1_GetMemoryHistoryResponse, _memoryd_v1_GetMemoryHistoryRequest__Output, _memoryd_v1_GetMemoryHistoryResponse__Output>
  ListMemories: MethodDefinition<_memoryd_v1_ListMemoriesRequest, _memoryd_v1_ListMemoriesResponse, _memoryd_v1_ListMemoriesRequest__Output, _memoryd_v1_ListMemoriesResponse__Output>
  Memorize: MethodDefinition<_memoryd_v1_MemorizeRequest, _memoryd_v1_MemorizeResponse, _memoryd_v1_MemorizeRequest__Output, _memoryd_v1_MemorizeResponse__Output>
  MemorizeBatch: MethodDefinition<_memoryd_v1_MemorizeBatchRequest, _memoryd_v1_MemorizeBatchResponse, _memoryd_v1_MemorizeBatchRequest__Output, _memoryd_v1_MemorizeBatchResponse__Output>
  Recall: MethodDefinition<_memoryd_v1_RecallRequest, _memoryd_v1_RecallResponse, _memoryd_v1_RecallRequest__Output, _memoryd_v1_RecallResponse__Output>
  RestoreMemory: MethodDefinition<_memoryd_v1_RestoreMemoryRequest, _memoryd_v1_RestoreMemoryResponse, _memoryd_v1_RestoreMemoryRequest__Output, _memoryd_v1_RestoreMemoryResponse__Output>
  UpdateMemory: MethodDefinition<_memoryd_v1_UpdateMemoryRequest, _memoryd_v1_UpdateMemoryResponse, _memoryd_v1_UpdateMemoryRequest__Output, _memoryd_v1_UpdateMemoryResponse__Output>
}
