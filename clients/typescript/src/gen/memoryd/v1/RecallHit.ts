// Original file: ../../proto/memoryd/v1/memory.proto

import type { Memory as _memoryd_v1_Memory, Memory__Output as _memoryd_v1_Memory__Output } from '../../memoryd/v1/Memory';
import type { ScoreParts as _memoryd_v1_ScoreParts, ScoreParts__Output as _memoryd_v1_ScoreParts__Output } from '../../memoryd/v1/ScoreParts';

/**
 * RecallHit is one search result.
 */
export interface RecallHit {
  /**
   * The memory, with provenance (source_context), author and timestamps.
   */
  'memory'?: (_memoryd_v1_Memory | null);
  /**
   * A score in [0, 1], comparable across queries and thresholdable with
   * min_score. RANKING_MODE_RELEVANCE: the relevance
   * 1 - (1 - vector_evidence) x (1 - full_text_evidence), i.e. either arm's
   * strong evidence is enough and agreement adds. Hits are ordered by
   * parts.fused x (0.25 + max(full_text_evidence, 0.5 x vector_evidence)),
   * which ranks better than the score itself, so a later hit can score
   * higher than an earlier one. RANKING_MODE_SALIENCE_DECAY:
   * the composite, in hit order. An arm that did not return the memory gives
   * no vector evidence; full-text evidence is read from every hit's content.
   */
  'score'?: (number | string);
  /**
   * How the score was made.
   */
  'parts'?: (_memoryd_v1_ScoreParts | null);
}

/**
 * RecallHit is one search result.
 */
export interface RecallHit__Output {
  /**
   * The memory, with provenance (source_context), author and timestamps.
   */
  'memory': (_memoryd_v1_Memory__Output | null);
  /**
   * A score in [0, 1], comparable across queries and thresholdable with
   * min_score. RANKING_MODE_RELEVANCE: the relevance
   * 1 - (1 - vector_evidence) x (1 - full_text_evidence), i.e. either arm's
   * strong evidence is enough and agreement adds. Hits are ordered by
   * parts.fused x (0.25 + max(full_text_evidence, 0.5 x vector_evidence)),
   * which ranks better than the score itself, so a later hit can score
   * higher than an earlier one. RANKING_MODE_SALIENCE_DECAY:
   * the composite, in hit order. An arm that did not return the memory gives
   * no vector evidence; full-text evidence is read from every hit's content.
   */
  'score': (number);
  /**
   * How the score was made.
   */
  'parts': (_memoryd_v1_ScoreParts__Output | null);
}
