// Original file: ../../proto/memoryd/v1/memory.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';

/**
 * MemoryHistoryEvent is one event on a memory.
 */
export interface MemoryHistoryEvent {
  'eventId'?: (string);
  'at'?: (_google_protobuf_Timestamp | null);
  /**
   * created, merged, updated, superseded, archived, restored, feedback,
   * imported, served.
   */
  'kind'?: (string);
  /**
   * The caller's key; empty for memoryd's own work and protected mode.
   */
  'keyId'?: (string);
  /**
   * The key's role, or "memoryd" for its own work.
   */
  'role'?: (string);
  /**
   * The agent the call acted as.
   */
  'agentId'?: (string);
  /**
   * The RPC (`MemoryService/Memorize`) or job (`job:compact`) that did it.
   */
  'via'?: (string);
  'requestId'?: (string);
  /**
   * Kind-specific: source_context (created), restatement (merged), the
   * earlier content / category / subject / scope / tags / salience /
   * collection (updated), review_id, finding_id and
   * superseded_by (superseded, archived), signal (feedback), status (the one
   * restored from), rank, score and conversation_id (served).
   */
  'detail'?: ({[key: string]: string});
  /**
   * served: the contact the serving was for.
   */
  'endUserId'?: (string);
}

/**
 * MemoryHistoryEvent is one event on a memory.
 */
export interface MemoryHistoryEvent__Output {
  'eventId': (string);
  'at': (_google_protobuf_Timestamp__Output | null);
  /**
   * created, merged, updated, superseded, archived, restored, feedback,
   * imported, served.
   */
  'kind': (string);
  /**
   * The caller's key; empty for memoryd's own work and protected mode.
   */
  'keyId': (string);
  /**
   * The key's role, or "memoryd" for its own work.
   */
  'role': (string);
  /**
   * The agent the call acted as.
   */
  'agentId': (string);
  /**
   * The RPC (`MemoryService/Memorize`) or job (`job:compact`) that did it.
   */
  'via': (string);
  'requestId': (string);
  /**
   * Kind-specific: source_context (created), restatement (merged), the
   * earlier content / category / subject / scope / tags / salience /
   * collection (updated), review_id, finding_id and
   * superseded_by (superseded, archived), signal (feedback), status (the one
   * restored from), rank, score and conversation_id (served).
   */
  'detail': ({[key: string]: string});
  /**
   * served: the contact the serving was for.
   */
  'endUserId': (string);
}
