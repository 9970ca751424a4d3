// Original file: ../../proto/memoryd/v1/conversation.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';
import type { Long } from '@grpc/proto-loader';

/**
 * ConversationSummary is a conversation's state, without its messages.
 */
export interface ConversationSummary {
  'conversationId'?: (string);
  'agentId'?: (string);
  'endUserId'?: (string);
  /**
   * Messages appended so far (the last seq).
   */
  'messages'?: (number | string | Long);
  /**
   * The last seq a summary covers (0: none compacted).
   */
  'compactedThrough'?: (number | string | Long);
  'summaries'?: (number);
  'contextWindow'?: (number);
  'createdAt'?: (_google_protobuf_Timestamp | null);
  'updatedAt'?: (_google_protobuf_Timestamp | null);
}

/**
 * ConversationSummary is a conversation's state, without its messages.
 */
export interface ConversationSummary__Output {
  'conversationId': (string);
  'agentId': (string);
  'endUserId': (string);
  /**
   * Messages appended so far (the last seq).
   */
  'messages': (number);
  /**
   * The last seq a summary covers (0: none compacted).
   */
  'compactedThrough': (number);
  'summaries': (number);
  'contextWindow': (number);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
  'updatedAt': (_google_protobuf_Timestamp__Output | null);
}
