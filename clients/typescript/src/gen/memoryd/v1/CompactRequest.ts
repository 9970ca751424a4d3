// Original file: ../../proto/memoryd/v1/conversation.proto


/**
 * CompactRequest names the conversation.
 */
export interface CompactRequest {
  'agentId'?: (string);
  'endUserId'?: (string);
  'conversationId'?: (string);
}

/**
 * CompactRequest names the conversation.
 */
export interface CompactRequest__Output {
  'agentId': (string);
  'endUserId': (string);
  'conversationId': (string);
}
