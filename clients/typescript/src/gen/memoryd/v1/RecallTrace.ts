// Original file: ../../proto/memoryd/v1/memory.proto

import type { TraceCandidate as _memoryd_v1_TraceCandidate, TraceCandidate__Output as _memoryd_v1_TraceCandidate__Output } from '../../memoryd/v1/TraceCandidate';
import type { ExplainedMemory as _memoryd_v1_ExplainedMemory, ExplainedMemory__Output as _memoryd_v1_ExplainedMemory__Output } from '../../memoryd/v1/ExplainedMemory';

/**
 * RecallTrace explains how one Recall's answer was made.
 */
export interface RecallTrace {
  /**
   * The values the Recall ran with (the agent's settings where the request left them unset).
   */
  'limit'?: (number);
  'minScore'?: (number | string);
  /**
   * Vector candidates under this cosine similarity were left out of the fusion.
   */
  'similarityFloor'?: (number | string);
  /**
   * Candidates asked of each arm.
   */
  'depth'?: (number);
  'vectorWeight'?: (number | string);
  'fullTextWeight'?: (number | string);
  /**
   * Whether the candidates were reordered by their coverage of the query (see RecallHit.score).
   */
  'coverageRerank'?: (boolean);
  /**
   * How many candidates each arm returned.
   */
  'vectorCandidates'?: (number);
  'fullTextCandidates'?: (number);
  /**
   * Every fused candidate, in the order served.
   */
  'candidates'?: (_memoryd_v1_TraceCandidate)[];
  /**
   * What became of each of the request's explain_ids, in its order.
   */
  'explained'?: (_memoryd_v1_ExplainedMemory)[];
}

/**
 * RecallTrace explains how one Recall's answer was made.
 */
export interface RecallTrace__Output {
  /**
   * The values the Recall ran with (the agent's settings where the request left them unset).
   */
  'limit': (number);
  'minScore': (number);
  /**
   * Vector candidates under this cosine similarity were left out of the fusion.
   */
  'similarityFloor': (number);
  /**
   * Candidates asked of each arm.
   */
  'depth': (number);
  'vectorWeight': (number);
  'fullTextWeight': (number);
  /**
   * Whether the candidates were reordered by their coverage of the query (see RecallHit.score).
   */
  'coverageRerank': (boolean);
  /**
   * How many candidates each arm returned.
   */
  'vectorCandidates': (number);
  'fullTextCandidates': (number);
  /**
   * Every fused candidate, in the order served.
   */
  'candidates': (_memoryd_v1_TraceCandidate__Output)[];
  /**
   * What became of each of the request's explain_ids, in its order.
   */
  'explained': (_memoryd_v1_ExplainedMemory__Output)[];
}
