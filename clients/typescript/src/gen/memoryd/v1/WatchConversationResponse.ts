// Original file: ../../proto/memoryd/v1/conversation.proto

import type { ConversationEvent as _memoryd_v1_ConversationEvent, ConversationEvent__Output as _memoryd_v1_ConversationEvent__Output } from '../../memoryd/v1/ConversationEvent';

/**
 * WatchConversationResponse carries one event.
 */
export interface WatchConversationResponse {
  'event'?: (_memoryd_v1_ConversationEvent | null);
}

/**
 * WatchConversationResponse carries one event.
 */
export interface WatchConversationResponse__Output {
  'event': (_memoryd_v1_ConversationEvent__Output | null);
}
