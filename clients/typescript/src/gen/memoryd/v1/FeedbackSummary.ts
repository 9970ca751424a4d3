// Original file: ../../proto/memoryd/v1/memory.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';
import type { Long } from '@grpc/proto-loader';

/**
 * FeedbackSummary counts the signals a memory received.
 */
export interface FeedbackSummary {
  /**
   * FEEDBACK_SIGNAL_USEFUL.
   */
  'useful'?: (number | string | Long);
  /**
   * FEEDBACK_SIGNAL_NOT_USEFUL.
   */
  'notUseful'?: (number | string | Long);
  /**
   * FEEDBACK_SIGNAL_WRONG.
   */
  'wrong'?: (number | string | Long);
  /**
   * FEEDBACK_SIGNAL_EXPLICIT_POSITIVE.
   */
  'explicitPositive'?: (number | string | Long);
  /**
   * FEEDBACK_SIGNAL_EXPLICIT_NEGATIVE.
   */
  'explicitNegative'?: (number | string | Long);
  /**
   * FEEDBACK_SIGNAL_CORRECTION.
   */
  'corrections'?: (number | string | Long);
  /**
   * FEEDBACK_SIGNAL_USED (AutoFeedback).
   */
  'used'?: (number | string | Long);
  /**
   * FEEDBACK_SIGNAL_UNUSED (AutoFeedback).
   */
  'unused'?: (number | string | Long);
  /**
   * The sum of the signals' steps, bounded to [-0.25, +0.25]; salience plus
   * this (within [0, 1]) is what RANKING_MODE_SALIENCE_DECAY uses.
   */
  'salienceShift'?: (number | string);
  /**
   * When the last signal arrived; unset if none.
   */
  'lastFeedbackAt'?: (_google_protobuf_Timestamp | null);
}

/**
 * FeedbackSummary counts the signals a memory received.
 */
export interface FeedbackSummary__Output {
  /**
   * FEEDBACK_SIGNAL_USEFUL.
   */
  'useful': (number);
  /**
   * FEEDBACK_SIGNAL_NOT_USEFUL.
   */
  'notUseful': (number);
  /**
   * FEEDBACK_SIGNAL_WRONG.
   */
  'wrong': (number);
  /**
   * FEEDBACK_SIGNAL_EXPLICIT_POSITIVE.
   */
  'explicitPositive': (number);
  /**
   * FEEDBACK_SIGNAL_EXPLICIT_NEGATIVE.
   */
  'explicitNegative': (number);
  /**
   * FEEDBACK_SIGNAL_CORRECTION.
   */
  'corrections': (number);
  /**
   * FEEDBACK_SIGNAL_USED (AutoFeedback).
   */
  'used': (number);
  /**
   * FEEDBACK_SIGNAL_UNUSED (AutoFeedback).
   */
  'unused': (number);
  /**
   * The sum of the signals' steps, bounded to [-0.25, +0.25]; salience plus
   * this (within [0, 1]) is what RANKING_MODE_SALIENCE_DECAY uses.
   */
  'salienceShift': (number);
  /**
   * When the last signal arrived; unset if none.
   */
  'lastFeedbackAt': (_google_protobuf_Timestamp__Output | null);
}
