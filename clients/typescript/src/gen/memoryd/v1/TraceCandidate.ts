// Original file: ../../proto/memoryd/v1/memory.proto


/**
 * TraceCandidate is one fused candidate of a traced Recall. Ranks are 1-based; 0: the arm did not
 * return it.
 */
export interface TraceCandidate {
  'memoryId'?: (string);
  /**
   * Its place in the order served (0: dropped, deleted or hidden since its arm found it).
   */
  'position'?: (number);
  'vectorRank'?: (number);
  'vectorSimilarity'?: (number | string);
  'fullTextRank'?: (number);
  'fullTextScore'?: (number | string);
  /**
   * The weighted RRF sum (0: a fill-in from under the similarity floor).
   */
  'fused'?: (number | string);
  'vectorEvidence'?: (number | string);
  'fullTextEvidence'?: (number | string);
  /**
   * The final score in [0, 1] (RecallHit.score).
   */
  'score'?: (number | string);
  /**
   * "hit", "below the cut", "under min_score", a fill-in below the cut, or dropped.
   */
  'outcome'?: (string);
  /**
   * The memory's text (the caller may read it: every candidate is visible to the acting agent).
   */
  'content'?: (string);
}

/**
 * TraceCandidate is one fused candidate of a traced Recall. Ranks are 1-based; 0: the arm did not
 * return it.
 */
export interface TraceCandidate__Output {
  'memoryId': (string);
  /**
   * Its place in the order served (0: dropped, deleted or hidden since its arm found it).
   */
  'position': (number);
  'vectorRank': (number);
  'vectorSimilarity': (number);
  'fullTextRank': (number);
  'fullTextScore': (number);
  /**
   * The weighted RRF sum (0: a fill-in from under the similarity floor).
   */
  'fused': (number);
  'vectorEvidence': (number);
  'fullTextEvidence': (number);
  /**
   * The final score in [0, 1] (RecallHit.score).
   */
  'score': (number);
  /**
   * "hit", "below the cut", "under min_score", a fill-in below the cut, or dropped.
   */
  'outcome': (string);
  /**
   * The memory's text (the caller may read it: every candidate is visible to the acting agent).
   */
  'content': (string);
}
