// Original file: ../../proto/memoryd/v1/memory.proto

import type { UsedResult as _memoryd_v1_UsedResult, UsedResult__Output as _memoryd_v1_UsedResult__Output } from '../../memoryd/v1/UsedResult';

/**
 * AutoFeedbackRequest reports on the results of a Recall.
 */
export interface AutoFeedbackRequest {
  /**
   * The acting agent. Required.
   */
  'agentId'?: (string);
  /**
   * The contact being served.
   */
  'endUserId'?: (string);
  /**
   * 1 to 100 results; an id listed twice is INVALID_ARGUMENT.
   */
  'results'?: (_memoryd_v1_UsedResult)[];
  /**
   * Optional idempotency key: a call repeated with it records nothing again.
   */
  'requestId'?: (string);
}

/**
 * AutoFeedbackRequest reports on the results of a Recall.
 */
export interface AutoFeedbackRequest__Output {
  /**
   * The acting agent. Required.
   */
  'agentId': (string);
  /**
   * The contact being served.
   */
  'endUserId': (string);
  /**
   * 1 to 100 results; an id listed twice is INVALID_ARGUMENT.
   */
  'results': (_memoryd_v1_UsedResult__Output)[];
  /**
   * Optional idempotency key: a call repeated with it records nothing again.
   */
  'requestId': (string);
}
