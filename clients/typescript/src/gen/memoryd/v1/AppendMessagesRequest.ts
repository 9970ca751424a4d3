// Original file: ../../proto/memoryd/v1/conversation.proto

import type { MessageInput as _memoryd_v1_MessageInput, MessageInput__Output as _memoryd_v1_MessageInput__Output } from '../../memoryd/v1/MessageInput';
import type { ConversationOptions as _memoryd_v1_ConversationOptions, ConversationOptions__Output as _memoryd_v1_ConversationOptions__Output } from '../../memoryd/v1/ConversationOptions';

/**
 * AppendMessagesRequest appends to a conversation (created on first append).
 */
export interface AppendMessagesRequest {
  /**
   * The agent. Required.
   */
  'agentId'?: (string);
  /**
   * The contact, if the conversation serves one.
   */
  'endUserId'?: (string);
  /**
   * Required (1-128 chars of [A-Za-z0-9._:@-]).
   */
  'conversationId'?: (string);
  /**
   * 1-500 messages, in order.
   */
  'messages'?: (_memoryd_v1_MessageInput)[];
  /**
   * The model's context window; remembered for compaction thresholds (default 8,192).
   */
  'contextWindowTokens'?: (number);
  'options'?: (_memoryd_v1_ConversationOptions | null);
}

/**
 * AppendMessagesRequest appends to a conversation (created on first append).
 */
export interface AppendMessagesRequest__Output {
  /**
   * The agent. Required.
   */
  'agentId': (string);
  /**
   * The contact, if the conversation serves one.
   */
  'endUserId': (string);
  /**
   * Required (1-128 chars of [A-Za-z0-9._:@-]).
   */
  'conversationId': (string);
  /**
   * 1-500 messages, in order.
   */
  'messages': (_memoryd_v1_MessageInput__Output)[];
  /**
   * The model's context window; remembered for compaction thresholds (default 8,192).
   */
  'contextWindowTokens': (number);
  'options': (_memoryd_v1_ConversationOptions__Output | null);
}
