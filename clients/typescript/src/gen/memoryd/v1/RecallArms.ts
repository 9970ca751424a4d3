// Original file: ../../proto/memoryd/v1/memory.proto

/**
 * RecallArms chooses which retrieval arms run (for evaluation and debugging).
 */
export const RecallArms = {
  /**
   * Same as RECALL_ARMS_BOTH.
   */
  RECALL_ARMS_UNSPECIFIED: 'RECALL_ARMS_UNSPECIFIED',
  /**
   * Vector and full-text arms, fused. The default.
   */
  RECALL_ARMS_BOTH: 'RECALL_ARMS_BOTH',
  /**
   * Only the vector arm (scores are still RRF contributions).
   */
  RECALL_ARMS_VECTOR: 'RECALL_ARMS_VECTOR',
  /**
   * Only the full-text arm.
   */
  RECALL_ARMS_FULL_TEXT: 'RECALL_ARMS_FULL_TEXT',
} as const;

/**
 * RecallArms chooses which retrieval arms run (for evaluation and debugging).
 */
export type RecallArms =
  /**
   * Same as RECALL_ARMS_BOTH.
   */
  | 'RECALL_ARMS_UNSPECIFIED'
  | 0
  /**
   * Vector and full-text arms, fused. The default.
   */
  | 'RECALL_ARMS_BOTH'
  | 1
  /**
   * Only the vector arm (scores are still RRF contributions).
   */
  | 'RECALL_ARMS_VECTOR'
  | 2
  /**
   * Only the full-text arm.
   */
  | 'RECALL_ARMS_FULL_TEXT'
  | 3

/**
 * RecallArms chooses which retrieval arms run (for evaluation and debugging).
 */
export type RecallArms__Output = typeof RecallArms[keyof typeof RecallArms]
