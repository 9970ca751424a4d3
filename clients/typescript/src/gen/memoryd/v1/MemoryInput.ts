// Original file: ../../proto/memoryd/v1/memory.proto

import type { Scope as _memoryd_v1_Scope, Scope__Output as _memoryd_v1_Scope__Output } from '../../memoryd/v1/Scope';
import type { MemoryType as _memoryd_v1_MemoryType, MemoryType__Output as _memoryd_v1_MemoryType__Output } from '../../memoryd/v1/MemoryType';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';

/**
 * MemoryInput is what a caller writes. Unset fields take the defaults shown.
 */
export interface MemoryInput {
  /**
   * Required, non-empty after trimming, at most 16 KiB of UTF-8 by default.
   */
  'content'?: (string);
  /**
   * Default SCOPE_PRIVATE. SCOPE_END_USER requires the request's end_user_id.
   */
  'scope'?: (_memoryd_v1_Scope);
  /**
   * Default MEMORY_TYPE_EPISODIC.
   */
  'memoryType'?: (_memoryd_v1_MemoryType);
  /**
   * At most 128 chars; default empty.
   */
  'category'?: (string);
  /**
   * At most 256 chars; default empty.
   */
  'subject'?: (string);
  /**
   * At most 32 tags of 1-64 chars; duplicates are dropped.
   */
  'tags'?: (string)[];
  /**
   * In [0, 1]; default 0.3 for episodic, 0.5 for semantic.
   */
  'salience'?: (number | string);
  /**
   * In [0, 1]; default 0.02 for episodic, 0.005 for semantic.
   */
  'decayFactor'?: (number | string);
  /**
   * Provenance, at most 1,024 chars; default empty.
   */
  'sourceContext'?: (string);
  /**
   * The id of a memory or graph entity this one annotates (a note about it);
   * default empty. It must be a full id of a memory or entity the writer can
   * see: INVALID_ARGUMENT for anything else that is not an id, NOT_FOUND for
   * an id it cannot see.
   */
  'sourceId'?: (string);
  /**
   * When the event happened; default: now. Not in the future by more than a day.
   */
  'occurredAt'?: (_google_protobuf_Timestamp | null);
  /**
   * Optional precomputed embedding (bulk imports). It must come from the
   * server's embedding model and have its dimension (384 for the embedded
   * default); it is L2-normalised on arrival. Empty: the server embeds.
   */
  'embedding'?: (number | string)[];
  /**
   * The named collection to file it in (a purpose, e.g. "support_tickets"): 1-64 chars of
   * [A-Za-z0-9._-]; empty for none. Recall and ListMemories select one with filter.collection.
   */
  'collection'?: (string);
  /**
   * Keep it whatever its age (see Memory.pinned); default false. A restatement
   * merged into a stored memory pins that memory.
   */
  'pinned'?: (boolean);
  '_salience'?: "salience";
  '_decayFactor'?: "decayFactor";
}

/**
 * MemoryInput is what a caller writes. Unset fields take the defaults shown.
 */
export interface MemoryInput__Output {
  /**
   * Required, non-empty after trimming, at most 16 KiB of UTF-8 by default.
   */
  'content': (string);
  /**
   * Default SCOPE_PRIVATE. SCOPE_END_USER requires the request's end_user_id.
   */
  'scope': (_memoryd_v1_Scope__Output);
  /**
   * Default MEMORY_TYPE_EPISODIC.
   */
  'memoryType': (_memoryd_v1_MemoryType__Output);
  /**
   * At most 128 chars; default empty.
   */
  'category': (string);
  /**
   * At most 256 chars; default empty.
   */
  'subject': (string);
  /**
   * At most 32 tags of 1-64 chars; duplicates are dropped.
   */
  'tags': (string)[];
  /**
   * In [0, 1]; default 0.3 for episodic, 0.5 for semantic.
   */
  'salience'?: (number);
  /**
   * In [0, 1]; default 0.02 for episodic, 0.005 for semantic.
   */
  'decayFactor'?: (number);
  /**
   * Provenance, at most 1,024 chars; default empty.
   */
  'sourceContext': (string);
  /**
   * The id of a memory or graph entity this one annotates (a note about it);
   * default empty. It must be a full id of a memory or entity the writer can
   * see: INVALID_ARGUMENT for anything else that is not an id, NOT_FOUND for
   * an id it cannot see.
   */
  'sourceId': (string);
  /**
   * When the event happened; default: now. Not in the future by more than a day.
   */
  'occurredAt': (_google_protobuf_Timestamp__Output | null);
  /**
   * Optional precomputed embedding (bulk imports). It must come from the
   * server's embedding model and have its dimension (384 for the embedded
   * default); it is L2-normalised on arrival. Empty: the server embeds.
   */
  'embedding': (number)[];
  /**
   * The named collection to file it in (a purpose, e.g. "support_tickets"): 1-64 chars of
   * [A-Za-z0-9._-]; empty for none. Recall and ListMemories select one with filter.collection.
   */
  'collection': (string);
  /**
   * Keep it whatever its age (see Memory.pinned); default false. A restatement
   * merged into a stored memory pins that memory.
   */
  'pinned': (boolean);
  '_salience'?: "salience";
  '_decayFactor'?: "decayFactor";
}
