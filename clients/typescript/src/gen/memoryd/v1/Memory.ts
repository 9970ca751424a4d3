// Original file: ../../proto/memoryd/v1/memory.proto

import type { Scope as _memoryd_v1_Scope, Scope__Output as _memoryd_v1_Scope__Output } from '../../memoryd/v1/Scope';
import type { MemoryType as _memoryd_v1_MemoryType, MemoryType__Output as _memoryd_v1_MemoryType__Output } from '../../memoryd/v1/MemoryType';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';
import type { MemoryStatus as _memoryd_v1_MemoryStatus, MemoryStatus__Output as _memoryd_v1_MemoryStatus__Output } from '../../memoryd/v1/MemoryStatus';
import type { FeedbackSummary as _memoryd_v1_FeedbackSummary, FeedbackSummary__Output as _memoryd_v1_FeedbackSummary__Output } from '../../memoryd/v1/FeedbackSummary';
import type { Long } from '@grpc/proto-loader';

/**
 * Memory is one archive row.
 */
export interface Memory {
  /**
   * Server-assigned id (32 lowercase hex chars, time-ordered).
   */
  'id'?: (string);
  /**
   * The agent that wrote it (for shared memories: "shared by <agent_id>").
   */
  'agentId'?: (string);
  /**
   * The contact it is attached to; empty unless scope is SCOPE_END_USER or
   * the author served a contact when writing it.
   */
  'endUserId'?: (string);
  /**
   * Who can see it.
   */
  'scope'?: (_memoryd_v1_Scope);
  /**
   * The text, at most 16 KiB of UTF-8 by default.
   */
  'content'?: (string);
  /**
   * Episodic or semantic.
   */
  'memoryType'?: (_memoryd_v1_MemoryType);
  /**
   * Free-form category, at most 128 chars; empty when unset.
   */
  'category'?: (string);
  /**
   * Free-form subject, at most 256 chars; empty when unset.
   */
  'subject'?: (string);
  /**
   * At most 32 tags of at most 64 chars each, unique, in insertion order.
   */
  'tags'?: (string)[];
  /**
   * Importance in [0, 1]. Recorded and shown; used only by
   * RANKING_MODE_SALIENCE_DECAY.
   */
  'salience'?: (number | string);
  /**
   * Exponential decay per day, in [0, 1].
   */
  'decayFactor'?: (number | string);
  /**
   * Provenance: where it was learned (e.g. "conversation c1, summary 3").
   */
  'sourceContext'?: (string);
  /**
   * The memory or graph entity this one annotates (a link: see
   * GetMemoryResponse.annotated_by and GraphService.GetEntity for the other
   * direction); empty when unset.
   */
  'sourceId'?: (string);
  /**
   * sha256 hex of the content.
   */
  'contentHash'?: (string);
  /**
   * The embedding model that produced its vector; empty while the embedding
   * is pending (see embedding_pending).
   */
  'embeddingModel'?: (string);
  /**
   * When it was first stored.
   */
  'createdAt'?: (_google_protobuf_Timestamp | null);
  /**
   * When it was last changed (including deduplicated re-memorizes).
   */
  'updatedAt'?: (_google_protobuf_Timestamp | null);
  /**
   * When the remembered event happened; defaults to created_at.
   */
  'occurredAt'?: (_google_protobuf_Timestamp | null);
  /**
   * How many times Recall returned it (recorded write-behind; may lag by a
   * few seconds). Filled by GetMemory and ListMemories; Recall hits leave it
   * 0 so that counting retrievals never costs Recall a lookup.
   */
  'retrievalCount'?: (number | string | Long);
  /**
   * When Recall last returned it; unset if never (and in Recall hits).
   */
  'lastRetrievedAt'?: (_google_protobuf_Timestamp | null);
  /**
   * Lifecycle state.
   */
  'status'?: (_memoryd_v1_MemoryStatus);
  /**
   * The memory that replaced this one (status SUPERSEDED); empty otherwise.
   */
  'supersededBy'?: (string);
  /**
   * How many times GetContext's auto-recall injected it into a context
   * (counted apart from retrieval_count: nobody asked for it). Filled like
   * retrieval_count.
   */
  'injectionCount'?: (number | string | Long);
  /**
   * Signals from Feedback and AutoFeedback; filled like retrieval_count.
   */
  'feedback'?: (_memoryd_v1_FeedbackSummary | null);
  /**
   * Stored while the embedder was unreachable: full-text search finds it,
   * vector search does not until a background pass embeds it (within
   * embedding.backfill_seconds of the embedder's return).
   */
  'embeddingPending'?: (boolean);
  /**
   * The named collection it was filed in; empty for none.
   */
  'collection'?: (string);
  /**
   * Kept whatever its age: retention.memories_days never deletes it, and a
   * review never proposes it as stale or clutter (Forget still removes it).
   */
  'pinned'?: (boolean);
}

/**
 * Memory is one archive row.
 */
export interface Memory__Output {
  /**
   * Server-assigned id (32 lowercase hex chars, time-ordered).
   */
  'id': (string);
  /**
   * The agent that wrote it (for shared memories: "shared by <agent_id>").
   */
  'agentId': (string);
  /**
   * The contact it is attached to; empty unless scope is SCOPE_END_USER or
   * the author served a contact when writing it.
   */
  'endUserId': (string);
  /**
   * Who can see it.
   */
  'scope': (_memoryd_v1_Scope__Output);
  /**
   * The text, at most 16 KiB of UTF-8 by default.
   */
  'content': (string);
  /**
   * Episodic or semantic.
   */
  'memoryType': (_memoryd_v1_MemoryType__Output);
  /**
   * Free-form category, at most 128 chars; empty when unset.
   */
  'category': (string);
  /**
   * Free-form subject, at most 256 chars; empty when unset.
   */
  'subject': (string);
  /**
   * At most 32 tags of at most 64 chars each, unique, in insertion order.
   */
  'tags': (string)[];
  /**
   * Importance in [0, 1]. Recorded and shown; used only by
   * RANKING_MODE_SALIENCE_DECAY.
   */
  'salience': (number);
  /**
   * Exponential decay per day, in [0, 1].
   */
  'decayFactor': (number);
  /**
   * Provenance: where it was learned (e.g. "conversation c1, summary 3").
   */
  'sourceContext': (string);
  /**
   * The memory or graph entity this one annotates (a link: see
   * GetMemoryResponse.annotated_by and GraphService.GetEntity for the other
   * direction); empty when unset.
   */
  'sourceId': (string);
  /**
   * sha256 hex of the content.
   */
  'contentHash': (string);
  /**
   * The embedding model that produced its vector; empty while the embedding
   * is pending (see embedding_pending).
   */
  'embeddingModel': (string);
  /**
   * When it was first stored.
   */
  'createdAt': (_google_protobuf_Timestamp__Output | null);
  /**
   * When it was last changed (including deduplicated re-memorizes).
   */
  'updatedAt': (_google_protobuf_Timestamp__Output | null);
  /**
   * When the remembered event happened; defaults to created_at.
   */
  'occurredAt': (_google_protobuf_Timestamp__Output | null);
  /**
   * How many times Recall returned it (recorded write-behind; may lag by a
   * few seconds). Filled by GetMemory and ListMemories; Recall hits leave it
   * 0 so that counting retrievals never costs Recall a lookup.
   */
  'retrievalCount': (number);
  /**
   * When Recall last returned it; unset if never (and in Recall hits).
   */
  'lastRetrievedAt': (_google_protobuf_Timestamp__Output | null);
  /**
   * Lifecycle state.
   */
  'status': (_memoryd_v1_MemoryStatus__Output);
  /**
   * The memory that replaced this one (status SUPERSEDED); empty otherwise.
   */
  'supersededBy': (string);
  /**
   * How many times GetContext's auto-recall injected it into a context
   * (counted apart from retrieval_count: nobody asked for it). Filled like
   * retrieval_count.
   */
  'injectionCount': (number);
  /**
   * Signals from Feedback and AutoFeedback; filled like retrieval_count.
   */
  'feedback': (_memoryd_v1_FeedbackSummary__Output | null);
  /**
   * Stored while the embedder was unreachable: full-text search finds it,
   * vector search does not until a background pass embeds it (within
   * embedding.backfill_seconds of the embedder's return).
   */
  'embeddingPending': (boolean);
  /**
   * The named collection it was filed in; empty for none.
   */
  'collection': (string);
  /**
   * Kept whatever its age: retention.memories_days never deletes it, and a
   * review never proposes it as stale or clutter (Forget still removes it).
   */
  'pinned': (boolean);
}
