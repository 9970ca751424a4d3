// Original file: ../../proto/memoryd/v1/conversation.proto


/**
 * EndSessionRequest names the conversation.
 */
export interface EndSessionRequest {
  'agentId'?: (string);
  'endUserId'?: (string);
  'conversationId'?: (string);
}

/**
 * EndSessionRequest names the conversation.
 */
export interface EndSessionRequest__Output {
  'agentId': (string);
  'endUserId': (string);
  'conversationId': (string);
}
