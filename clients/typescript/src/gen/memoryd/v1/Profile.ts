// Original file: ../../proto/memoryd/v1/profile.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';
import type { Long } from '@grpc/proto-loader';

/**
 * Profile is one revision of an agent's profile.
 */
export interface Profile {
  /**
   * The agent it belongs to.
   */
  'agentId'?: (string);
  /**
   * Markdown with `## Section` headings; empty for revision 0.
   */
  'document'?: (string);
  /**
   * Exact token count of `document` in `encoding`.
   */
  'tokenCount'?: (number);
  /**
   * The most tokens the document may hold (default 1,500).
   */
  'budgetTokens'?: (number);
  /**
   * Starts at 0 (never written) and grows by one per accepted change.
   */
  'revision'?: (number | string | Long);
  /**
   * The text a runtime puts in its cached system-prompt prefix. It is a pure
   * function of the document: byte-for-byte stable while the revision does
   * not change, so provider prompt caches keep hitting.
   */
  'promptBlock'?: (string);
  /**
   * When this revision was written (unset for revision 0).
   */
  'updatedAt'?: (_google_protobuf_Timestamp | null);
  /**
   * The token encoding used for counts (e.g. "o200k_base").
   */
  'encoding'?: (string);
  /**
   * What wrote this revision: "edit", "rewrite:…" (compaction / bootstrap),
   * "restore:N" (revision N's document made current again), ...
   */
  'source'?: (string);
}

/**
 * Profile is one revision of an agent's profile.
 */
export interface Profile__Output {
  /**
   * The agent it belongs to.
   */
  'agentId': (string);
  /**
   * Markdown with `## Section` headings; empty for revision 0.
   */
  'document': (string);
  /**
   * Exact token count of `document` in `encoding`.
   */
  'tokenCount': (number);
  /**
   * The most tokens the document may hold (default 1,500).
   */
  'budgetTokens': (number);
  /**
   * Starts at 0 (never written) and grows by one per accepted change.
   */
  'revision': (number);
  /**
   * The text a runtime puts in its cached system-prompt prefix. It is a pure
   * function of the document: byte-for-byte stable while the revision does
   * not change, so provider prompt caches keep hitting.
   */
  'promptBlock': (string);
  /**
   * When this revision was written (unset for revision 0).
   */
  'updatedAt': (_google_protobuf_Timestamp__Output | null);
  /**
   * The token encoding used for counts (e.g. "o200k_base").
   */
  'encoding': (string);
  /**
   * What wrote this revision: "edit", "rewrite:…" (compaction / bootstrap),
   * "restore:N" (revision N's document made current again), ...
   */
  'source': (string);
}
