// Original file: ../../proto/memoryd/v1/graph.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';

export interface SearchGraphRequest {
  /**
   * The acting agent. Required.
   */
  'agentId'?: (string);
  /**
   * The contact being served; its end_user facts become visible.
   */
  'endUserId'?: (string);
  /**
   * Free text, 1 to 4,096 chars.
   */
  'query'?: (string);
  /**
   * The date the facts must hold at; unset: now.
   */
  'asOf'?: (_google_protobuf_Timestamp | null);
  /**
   * Expansion depth, 0 to 3; unset: the agent's `graph.max_hops` (2).
   */
  'maxHops'?: (number);
  /**
   * The block's token budget, 20 to 8,000; unset: the agent's `graph.budget_tokens` (600).
   */
  'budgetTokens'?: (number);
  /**
   * Facts returned, 1 to 100; 0 means 20.
   */
  'limit'?: (number);
  '_maxHops'?: "maxHops";
  '_budgetTokens'?: "budgetTokens";
}

export interface SearchGraphRequest__Output {
  /**
   * The acting agent. Required.
   */
  'agentId': (string);
  /**
   * The contact being served; its end_user facts become visible.
   */
  'endUserId': (string);
  /**
   * Free text, 1 to 4,096 chars.
   */
  'query': (string);
  /**
   * The date the facts must hold at; unset: now.
   */
  'asOf': (_google_protobuf_Timestamp__Output | null);
  /**
   * Expansion depth, 0 to 3; unset: the agent's `graph.max_hops` (2).
   */
  'maxHops'?: (number);
  /**
   * The block's token budget, 20 to 8,000; unset: the agent's `graph.budget_tokens` (600).
   */
  'budgetTokens'?: (number);
  /**
   * Facts returned, 1 to 100; 0 means 20.
   */
  'limit': (number);
  '_maxHops'?: "maxHops";
  '_budgetTokens'?: "budgetTokens";
}
