// Original file: ../../proto/memoryd/v1/memory.proto

import type { FeedbackSignal as _memoryd_v1_FeedbackSignal, FeedbackSignal__Output as _memoryd_v1_FeedbackSignal__Output } from '../../memoryd/v1/FeedbackSignal';

/**
 * FeedbackRequest carries one signal.
 */
export interface FeedbackRequest {
  /**
   * The acting agent. Required.
   */
  'agentId'?: (string);
  /**
   * The contact being served.
   */
  'endUserId'?: (string);
  /**
   * The memory's full id. Required.
   */
  'memoryId'?: (string);
  /**
   * Required; FEEDBACK_SIGNAL_USED and _UNUSED are AutoFeedback's.
   */
  'signal'?: (_memoryd_v1_FeedbackSignal);
  /**
   * The corrected text: required with FEEDBACK_SIGNAL_CORRECTION (same
   * limits as MemoryInput.content), empty otherwise.
   */
  'correction'?: (string);
  /**
   * Optional idempotency key (as MemorizeRequest.request_id): a call repeated
   * with it is answered without counting the signal again.
   */
  'requestId'?: (string);
}

/**
 * FeedbackRequest carries one signal.
 */
export interface FeedbackRequest__Output {
  /**
   * The acting agent. Required.
   */
  'agentId': (string);
  /**
   * The contact being served.
   */
  'endUserId': (string);
  /**
   * The memory's full id. Required.
   */
  'memoryId': (string);
  /**
   * Required; FEEDBACK_SIGNAL_USED and _UNUSED are AutoFeedback's.
   */
  'signal': (_memoryd_v1_FeedbackSignal__Output);
  /**
   * The corrected text: required with FEEDBACK_SIGNAL_CORRECTION (same
   * limits as MemoryInput.content), empty otherwise.
   */
  'correction': (string);
  /**
   * Optional idempotency key (as MemorizeRequest.request_id): a call repeated
   * with it is answered without counting the signal again.
   */
  'requestId': (string);
}
