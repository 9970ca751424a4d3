// Original file: ../../proto/memoryd/v1/conversation.proto


/**
 * WatchConversationRequest names the conversation.
 */
export interface WatchConversationRequest {
  'agentId'?: (string);
  'endUserId'?: (string);
  'conversationId'?: (string);
  /**
   * Replay the persisted events first.
   */
  'fromStart'?: (boolean);
}

/**
 * WatchConversationRequest names the conversation.
 */
export interface WatchConversationRequest__Output {
  'agentId': (string);
  'endUserId': (string);
  'conversationId': (string);
  /**
   * Replay the persisted events first.
   */
  'fromStart': (boolean);
}
