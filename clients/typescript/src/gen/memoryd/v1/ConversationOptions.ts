// Original file: ../../proto/memoryd/v1/conversation.proto

import type { Strategy as _memoryd_v1_Strategy, Strategy__Output as _memoryd_v1_Strategy__Output } from '../../memoryd/v1/Strategy';
import type { StorageScope as _memoryd_v1_StorageScope, StorageScope__Output as _memoryd_v1_StorageScope__Output } from '../../memoryd/v1/StorageScope';

/**
 * ConversationOptions override the agent's policy for one conversation (sticky).
 */
export interface ConversationOptions {
  'strategy'?: (_memoryd_v1_Strategy);
  /**
   * buffer_window: how many messages.
   */
  'windowMessages'?: (number);
  /**
   * summary_buffer: the token budget.
   */
  'budgetTokens'?: (number);
  'storageScope'?: (_memoryd_v1_StorageScope);
  'autoRecall'?: (boolean);
  '_windowMessages'?: "windowMessages";
  '_budgetTokens'?: "budgetTokens";
  '_autoRecall'?: "autoRecall";
}

/**
 * ConversationOptions override the agent's policy for one conversation (sticky).
 */
export interface ConversationOptions__Output {
  'strategy': (_memoryd_v1_Strategy__Output);
  /**
   * buffer_window: how many messages.
   */
  'windowMessages'?: (number);
  /**
   * summary_buffer: the token budget.
   */
  'budgetTokens'?: (number);
  'storageScope': (_memoryd_v1_StorageScope__Output);
  'autoRecall'?: (boolean);
  '_windowMessages'?: "windowMessages";
  '_budgetTokens'?: "budgetTokens";
  '_autoRecall'?: "autoRecall";
}
