// Original file: ../../proto/memoryd/v1/conversation.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';

/**
 * ConversationEvent is one compaction step.
 */
export interface ConversationEvent {
  /**
   * compaction_started | compaction_finished | compaction_failed.
   */
  'kind'?: (string);
  'jobId'?: (string);
  /**
   * What happened; for failures, the error.
   */
  'message'?: (string);
  /**
   * model | extractive | window.
   */
  'path'?: (string);
  'summarizedMessages'?: (number);
  /**
   * Tokens sent to and received from the model by this compaction.
   */
  'tokensIn'?: (number);
  'tokensOut'?: (number);
  'at'?: (_google_protobuf_Timestamp | null);
}

/**
 * ConversationEvent is one compaction step.
 */
export interface ConversationEvent__Output {
  /**
   * compaction_started | compaction_finished | compaction_failed.
   */
  'kind': (string);
  'jobId': (string);
  /**
   * What happened; for failures, the error.
   */
  'message': (string);
  /**
   * model | extractive | window.
   */
  'path': (string);
  'summarizedMessages': (number);
  /**
   * Tokens sent to and received from the model by this compaction.
   */
  'tokensIn': (number);
  'tokensOut': (number);
  'at': (_google_protobuf_Timestamp__Output | null);
}
