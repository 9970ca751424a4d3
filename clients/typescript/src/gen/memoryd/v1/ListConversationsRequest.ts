// Original file: ../../proto/memoryd/v1/conversation.proto


/**
 * ListConversationsRequest: one agent's conversations.
 */
export interface ListConversationsRequest {
  /**
   * The agent. Required.
   */
  'agentId'?: (string);
  /**
   * The contact whose conversations to list ("" for those with none).
   */
  'endUserId'?: (string);
  /**
   * Every contact's conversations of the agent (operator keys).
   */
  'allContacts'?: (boolean);
  /**
   * 1-200; 0 means 50.
   */
  'pageSize'?: (number);
  'pageToken'?: (string);
}

/**
 * ListConversationsRequest: one agent's conversations.
 */
export interface ListConversationsRequest__Output {
  /**
   * The agent. Required.
   */
  'agentId': (string);
  /**
   * The contact whose conversations to list ("" for those with none).
   */
  'endUserId': (string);
  /**
   * Every contact's conversations of the agent (operator keys).
   */
  'allContacts': (boolean);
  /**
   * 1-200; 0 means 50.
   */
  'pageSize': (number);
  'pageToken': (string);
}
