// Original file: ../../proto/memoryd/v1/memory.proto


/**
 * ScoreParts explains a hit's score. A rank is 1-based; 0 means the arm did
 * not return the memory.
 */
export interface ScoreParts {
  /**
   * Rank in the vector arm.
   */
  'vectorRank'?: (number);
  /**
   * Cosine similarity to the query, in [-1, 1] (0 when absent).
   */
  'vectorSimilarity'?: (number | string);
  /**
   * weight / (K + rank) contributed by the vector arm.
   */
  'vectorContribution'?: (number | string);
  /**
   * Rank in the full-text arm.
   */
  'fullTextRank'?: (number);
  /**
   * BM25 score in the full-text arm (0 when absent).
   */
  'fullTextScore'?: (number | string);
  /**
   * weight / (K + rank) contributed by the full-text arm.
   */
  'fullTextContribution'?: (number | string);
  /**
   * Only with RANKING_MODE_SALIENCE_DECAY: the composite before sorting.
   */
  'composite'?: (number | string);
  /**
   * The raw fused RRF sum, vector_contribution + full_text_contribution
   * (relevance ranking orders hits by it times their coverage; see score).
   */
  'fused'?: (number | string);
  /**
   * The vector evidence in [0, 1]: vector_similarity placed between the
   * embedder's calibrated noise level (0) and a strong match (1).
   */
  'vectorEvidence'?: (number | string);
  /**
   * The full-text evidence in [0, 1]: the share of the query's search terms
   * the memory contains as words or word prefixes.
   */
  'fullTextEvidence'?: (number | string);
}

/**
 * ScoreParts explains a hit's score. A rank is 1-based; 0 means the arm did
 * not return the memory.
 */
export interface ScoreParts__Output {
  /**
   * Rank in the vector arm.
   */
  'vectorRank': (number);
  /**
   * Cosine similarity to the query, in [-1, 1] (0 when absent).
   */
  'vectorSimilarity': (number);
  /**
   * weight / (K + rank) contributed by the vector arm.
   */
  'vectorContribution': (number);
  /**
   * Rank in the full-text arm.
   */
  'fullTextRank': (number);
  /**
   * BM25 score in the full-text arm (0 when absent).
   */
  'fullTextScore': (number);
  /**
   * weight / (K + rank) contributed by the full-text arm.
   */
  'fullTextContribution': (number);
  /**
   * Only with RANKING_MODE_SALIENCE_DECAY: the composite before sorting.
   */
  'composite': (number);
  /**
   * The raw fused RRF sum, vector_contribution + full_text_contribution
   * (relevance ranking orders hits by it times their coverage; see score).
   */
  'fused': (number);
  /**
   * The vector evidence in [0, 1]: vector_similarity placed between the
   * embedder's calibrated noise level (0) and a strong match (1).
   */
  'vectorEvidence': (number);
  /**
   * The full-text evidence in [0, 1]: the share of the query's search terms
   * the memory contains as words or word prefixes.
   */
  'fullTextEvidence': (number);
}
