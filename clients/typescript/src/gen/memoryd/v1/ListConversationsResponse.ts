// Original file: ../../proto/memoryd/v1/conversation.proto

import type { ConversationSummary as _memoryd_v1_ConversationSummary, ConversationSummary__Output as _memoryd_v1_ConversationSummary__Output } from '../../memoryd/v1/ConversationSummary';

/**
 * ListConversationsResponse: the most recently updated first.
 */
export interface ListConversationsResponse {
  'conversations'?: (_memoryd_v1_ConversationSummary)[];
  /**
   * Empty on the last page.
   */
  'nextPageToken'?: (string);
}

/**
 * ListConversationsResponse: the most recently updated first.
 */
export interface ListConversationsResponse__Output {
  'conversations': (_memoryd_v1_ConversationSummary__Output)[];
  /**
   * Empty on the last page.
   */
  'nextPageToken': (string);
}
