// Original file: ../../proto/memoryd/v1/conversation.proto

import type { ContextMessage as _memoryd_v1_ContextMessage, ContextMessage__Output as _memoryd_v1_ContextMessage__Output } from '../../memoryd/v1/ContextMessage';
import type { Strategy as _memoryd_v1_Strategy, Strategy__Output as _memoryd_v1_Strategy__Output } from '../../memoryd/v1/Strategy';

/**
 * GetContextResponse is the context, in the order to send it.
 */
export interface GetContextResponse {
  'messages'?: (_memoryd_v1_ContextMessage)[];
  'totalTokens'?: (number);
  'profileTokens'?: (number);
  'summaryTokens'?: (number);
  'messageTokens'?: (number);
  'memoryTokens'?: (number);
  /**
   * The strategy used.
   */
  'strategy'?: (_memoryd_v1_Strategy);
  /**
   * Raw messages left out to fit the window (a compaction is due or running).
   */
  'leftOutMessages'?: (number);
  /**
   * The token encoding of every count (o200k_base).
   */
  'encoding'?: (string);
  /**
   * Why a part is poorer than usual, as Recall's `degraded_reason`: auto-recall answered by
   * full text alone, or the graph block left out, because the embedder is unreachable. Empty when
   * the context is whole.
   */
  'degradedReason'?: (string);
}

/**
 * GetContextResponse is the context, in the order to send it.
 */
export interface GetContextResponse__Output {
  'messages': (_memoryd_v1_ContextMessage__Output)[];
  'totalTokens': (number);
  'profileTokens': (number);
  'summaryTokens': (number);
  'messageTokens': (number);
  'memoryTokens': (number);
  /**
   * The strategy used.
   */
  'strategy': (_memoryd_v1_Strategy__Output);
  /**
   * Raw messages left out to fit the window (a compaction is due or running).
   */
  'leftOutMessages': (number);
  /**
   * The token encoding of every count (o200k_base).
   */
  'encoding': (string);
  /**
   * Why a part is poorer than usual, as Recall's `degraded_reason`: auto-recall answered by
   * full text alone, or the graph block left out, because the embedder is unreachable. Empty when
   * the context is whole.
   */
  'degradedReason': (string);
}
