// Original file: ../../proto/memoryd/v1/memory.proto

import type { Memory as _memoryd_v1_Memory, Memory__Output as _memoryd_v1_Memory__Output } from '../../memoryd/v1/Memory';

/**
 * FeedbackResponse returns the memory with its counts.
 */
export interface FeedbackResponse {
  /**
   * The memory the signal was about, after it (SUPERSEDED by a correction).
   */
  'memory'?: (_memoryd_v1_Memory | null);
  /**
   * The corrected memory, with FEEDBACK_SIGNAL_CORRECTION only.
   */
  'correction'?: (_memoryd_v1_Memory | null);
}

/**
 * FeedbackResponse returns the memory with its counts.
 */
export interface FeedbackResponse__Output {
  /**
   * The memory the signal was about, after it (SUPERSEDED by a correction).
   */
  'memory': (_memoryd_v1_Memory__Output | null);
  /**
   * The corrected memory, with FEEDBACK_SIGNAL_CORRECTION only.
   */
  'correction': (_memoryd_v1_Memory__Output | null);
}
