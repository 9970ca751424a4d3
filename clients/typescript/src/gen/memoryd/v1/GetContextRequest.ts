// Original file: ../../proto/memoryd/v1/conversation.proto


/**
 * GetContextRequest names the conversation and the window to fill.
 */
export interface GetContextRequest {
  'agentId'?: (string);
  'endUserId'?: (string);
  'conversationId'?: (string);
  /**
   * Required: 256 to 4,000,000.
   */
  'contextWindowTokens'?: (number);
}

/**
 * GetContextRequest names the conversation and the window to fill.
 */
export interface GetContextRequest__Output {
  'agentId': (string);
  'endUserId': (string);
  'conversationId': (string);
  /**
   * Required: 256 to 4,000,000.
   */
  'contextWindowTokens': (number);
}
