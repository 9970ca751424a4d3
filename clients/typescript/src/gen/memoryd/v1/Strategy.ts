// Original file: ../../proto/memoryd/v1/conversation.proto

/**
 * Strategy is how the context is kept within the window.
 */
export const Strategy = {
  /**
   * The agent's configured strategy.
   */
  STRATEGY_UNSPECIFIED: 'STRATEGY_UNSPECIFIED',
  /**
   * The last N messages (default 20).
   */
  STRATEGY_BUFFER_WINDOW: 'STRATEGY_BUFFER_WINDOW',
  /**
   * A token budget (default 2,000): summarise at 0.8 of it down to 0.6.
   */
  STRATEGY_SUMMARY_BUFFER: 'STRATEGY_SUMMARY_BUFFER',
  /**
   * The default: above 75% of the window, everything before a 40% keep-window becomes a
   * new dated summary; summaries accumulate; the oldest merge into `[compressed]` ones.
   */
  STRATEGY_ACCUMULATE: 'STRATEGY_ACCUMULATE',
} as const;

/**
 * Strategy is how the context is kept within the window.
 */
export type Strategy =
  /**
   * The agent's configured strategy.
   */
  | 'STRATEGY_UNSPECIFIED'
  | 0
  /**
   * The last N messages (default 20).
   */
  | 'STRATEGY_BUFFER_WINDOW'
  | 1
  /**
   * A token budget (default 2,000): summarise at 0.8 of it down to 0.6.
   */
  | 'STRATEGY_SUMMARY_BUFFER'
  | 2
  /**
   * The default: above 75% of the window, everything before a 40% keep-window becomes a
   * new dated summary; summaries accumulate; the oldest merge into `[compressed]` ones.
   */
  | 'STRATEGY_ACCUMULATE'
  | 3

/**
 * Strategy is how the context is kept within the window.
 */
export type Strategy__Output = typeof Strategy[keyof typeof Strategy]
