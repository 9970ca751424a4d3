// Original file: ../../proto/memoryd/v1/memory.proto

/**
 * FeedbackSignal is what a caller says about a memory; the step it moves the
 * salience shift by is given with each value.
 */
export const FeedbackSignal = {
  /**
   * Rejected (INVALID_ARGUMENT).
   */
  FEEDBACK_SIGNAL_UNSPECIFIED: 'FEEDBACK_SIGNAL_UNSPECIFIED',
  /**
   * It helped (+0.02).
   */
  FEEDBACK_SIGNAL_USEFUL: 'FEEDBACK_SIGNAL_USEFUL',
  /**
   * It did not help (-0.02).
   */
  FEEDBACK_SIGNAL_NOT_USEFUL: 'FEEDBACK_SIGNAL_NOT_USEFUL',
  /**
   * It is false (-0.10); the review job lists it for a human.
   */
  FEEDBACK_SIGNAL_WRONG: 'FEEDBACK_SIGNAL_WRONG',
  /**
   * A person said it matters (+0.05).
   */
  FEEDBACK_SIGNAL_EXPLICIT_POSITIVE: 'FEEDBACK_SIGNAL_EXPLICIT_POSITIVE',
  /**
   * A person said it does not matter (-0.05).
   */
  FEEDBACK_SIGNAL_EXPLICIT_NEGATIVE: 'FEEDBACK_SIGNAL_EXPLICIT_NEGATIVE',
  /**
   * It is false and `correction` says what is true (-0.10 on the old memory).
   */
  FEEDBACK_SIGNAL_CORRECTION: 'FEEDBACK_SIGNAL_CORRECTION',
  /**
   * AutoFeedback: a recalled memory the runtime used (+0.01).
   */
  FEEDBACK_SIGNAL_USED: 'FEEDBACK_SIGNAL_USED',
  /**
   * AutoFeedback: a recalled memory the runtime did not use (-0.005).
   */
  FEEDBACK_SIGNAL_UNUSED: 'FEEDBACK_SIGNAL_UNUSED',
} as const;

/**
 * FeedbackSignal is what a caller says about a memory; the step it moves the
 * salience shift by is given with each value.
 */
export type FeedbackSignal =
  /**
   * Rejected (INVALID_ARGUMENT).
   */
  | 'FEEDBACK_SIGNAL_UNSPECIFIED'
  | 0
  /**
   * It helped (+0.02).
   */
  | 'FEEDBACK_SIGNAL_USEFUL'
  | 1
  /**
   * It did not help (-0.02).
   */
  | 'FEEDBACK_SIGNAL_NOT_USEFUL'
  | 2
  /**
   * It is false (-0.10); the review job lists it for a human.
   */
  | 'FEEDBACK_SIGNAL_WRONG'
  | 3
  /**
   * A person said it matters (+0.05).
   */
  | 'FEEDBACK_SIGNAL_EXPLICIT_POSITIVE'
  | 4
  /**
   * A person said it does not matter (-0.05).
   */
  | 'FEEDBACK_SIGNAL_EXPLICIT_NEGATIVE'
  | 5
  /**
   * It is false and `correction` says what is true (-0.10 on the old memory).
   */
  | 'FEEDBACK_SIGNAL_CORRECTION'
  | 6
  /**
   * AutoFeedback: a recalled memory the runtime used (+0.01).
   */
  | 'FEEDBACK_SIGNAL_USED'
  | 7
  /**
   * AutoFeedback: a recalled memory the runtime did not use (-0.005).
   */
  | 'FEEDBACK_SIGNAL_UNUSED'
  | 8

/**
 * FeedbackSignal is what a caller says about a memory; the step it moves the
 * salience shift by is given with each value.
 */
export type FeedbackSignal__Output = typeof FeedbackSignal[keyof typeof FeedbackSignal]
