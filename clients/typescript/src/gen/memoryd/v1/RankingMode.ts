// Original file: ../../proto/memoryd/v1/memory.proto

/**
 * RankingMode chooses how Recall orders its hits.
 */
export const RankingMode = {
  /**
   * Same as RANKING_MODE_RELEVANCE.
   */
  RANKING_MODE_UNSPECIFIED: 'RANKING_MODE_UNSPECIFIED',
  /**
   * Fused relevance only; recency breaks ties. retrieval_count and salience
   * are never used. The default.
   */
  RANKING_MODE_RELEVANCE: 'RANKING_MODE_RELEVANCE',
  /**
   * Opt-in composite: 0.70 relevance (RecallHit.score's relevance, in
   * [0, 1]) + 0.20 salience x exp(-decay_factor x age_days) + 0.10 recency
   * (exp(-age_days / 30)); salience includes the feedback shift (within
   * [0, 1]). Hits are sorted by it.
   */
  RANKING_MODE_SALIENCE_DECAY: 'RANKING_MODE_SALIENCE_DECAY',
} as const;

/**
 * RankingMode chooses how Recall orders its hits.
 */
export type RankingMode =
  /**
   * Same as RANKING_MODE_RELEVANCE.
   */
  | 'RANKING_MODE_UNSPECIFIED'
  | 0
  /**
   * Fused relevance only; recency breaks ties. retrieval_count and salience
   * are never used. The default.
   */
  | 'RANKING_MODE_RELEVANCE'
  | 1
  /**
   * Opt-in composite: 0.70 relevance (RecallHit.score's relevance, in
   * [0, 1]) + 0.20 salience x exp(-decay_factor x age_days) + 0.10 recency
   * (exp(-age_days / 30)); salience includes the feedback shift (within
   * [0, 1]). Hits are sorted by it.
   */
  | 'RANKING_MODE_SALIENCE_DECAY'
  | 2

/**
 * RankingMode chooses how Recall orders its hits.
 */
export type RankingMode__Output = typeof RankingMode[keyof typeof RankingMode]
