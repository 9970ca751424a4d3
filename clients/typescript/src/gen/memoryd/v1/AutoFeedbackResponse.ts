// Original file: ../../proto/memoryd/v1/memory.proto


/**
 * AutoFeedbackResponse confirms the signals were recorded.
 */
export interface AutoFeedbackResponse {
  /**
   * How many signals were recorded.
   */
  'recorded'?: (number);
}

/**
 * AutoFeedbackResponse confirms the signals were recorded.
 */
export interface AutoFeedbackResponse__Output {
  /**
   * How many signals were recorded.
   */
  'recorded': (number);
}
