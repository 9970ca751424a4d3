// Original file: ../../proto/memoryd/v1/memory.proto

import type { RecallHit as _memoryd_v1_RecallHit, RecallHit__Output as _memoryd_v1_RecallHit__Output } from '../../memoryd/v1/RecallHit';
import type { RecallTrace as _memoryd_v1_RecallTrace, RecallTrace__Output as _memoryd_v1_RecallTrace__Output } from '../../memoryd/v1/RecallTrace';

/**
 * RecallResponse lists hits, best first.
 */
export interface RecallResponse {
  /**
   * At most `limit` hits.
   */
  'hits'?: (_memoryd_v1_RecallHit)[];
  /**
   * True when an arm could not run and the other answered alone: today,
   * when the embedder is unreachable the full-text arm answers (a request
   * with a precomputed query_embedding needs no embedder). Never an empty
   * success in disguise: a request for the vector arm alone fails
   * UNAVAILABLE instead.
   */
  'degraded'?: (boolean);
  /**
   * Why, when degraded; empty otherwise.
   */
  'degradedReason'?: (string);
  /**
   * Set when the request asked for it (explain).
   */
  'trace'?: (_memoryd_v1_RecallTrace | null);
}

/**
 * RecallResponse lists hits, best first.
 */
export interface RecallResponse__Output {
  /**
   * At most `limit` hits.
   */
  'hits': (_memoryd_v1_RecallHit__Output)[];
  /**
   * True when an arm could not run and the other answered alone: today,
   * when the embedder is unreachable the full-text arm answers (a request
   * with a precomputed query_embedding needs no embedder). Never an empty
   * success in disguise: a request for the vector arm alone fails
   * UNAVAILABLE instead.
   */
  'degraded': (boolean);
  /**
   * Why, when degraded; empty otherwise.
   */
  'degradedReason': (string);
  /**
   * Set when the request asked for it (explain).
   */
  'trace': (_memoryd_v1_RecallTrace__Output | null);
}
