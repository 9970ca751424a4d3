// Original file: ../../proto/memoryd/v1/conversation.proto

/**
 * StorageScope is what compacted messages leave in the archive.
 */
export const StorageScope = {
  /**
   * The agent's configured scope (default SESSION).
   */
  STORAGE_SCOPE_UNSPECIFIED: 'STORAGE_SCOPE_UNSPECIFIED',
  /**
   * Every dropped user and assistant message becomes an episodic memory.
   */
  STORAGE_SCOPE_ALL: 'STORAGE_SCOPE_ALL',
  /**
   * Each compaction's summary becomes one memory; an extractive summary (made
   * without a model, it quotes a few messages) files the dropped user messages too.
   */
  STORAGE_SCOPE_SESSION: 'STORAGE_SCOPE_SESSION',
  /**
   * Dropped user messages become memories.
   */
  STORAGE_SCOPE_CONVERSATIONAL: 'STORAGE_SCOPE_CONVERSATIONAL',
  /**
   * Only the summaries kept with the conversation (plus what maintenance extracts).
   */
  STORAGE_SCOPE_SUMMARIES_ONLY: 'STORAGE_SCOPE_SUMMARIES_ONLY',
} as const;

/**
 * StorageScope is what compacted messages leave in the archive.
 */
export type StorageScope =
  /**
   * The agent's configured scope (default SESSION).
   */
  | 'STORAGE_SCOPE_UNSPECIFIED'
  | 0
  /**
   * Every dropped user and assistant message becomes an episodic memory.
   */
  | 'STORAGE_SCOPE_ALL'
  | 1
  /**
   * Each compaction's summary becomes one memory; an extractive summary (made
   * without a model, it quotes a few messages) files the dropped user messages too.
   */
  | 'STORAGE_SCOPE_SESSION'
  | 2
  /**
   * Dropped user messages become memories.
   */
  | 'STORAGE_SCOPE_CONVERSATIONAL'
  | 3
  /**
   * Only the summaries kept with the conversation (plus what maintenance extracts).
   */
  | 'STORAGE_SCOPE_SUMMARIES_ONLY'
  | 4

/**
 * StorageScope is what compacted messages leave in the archive.
 */
export type StorageScope__Output = typeof StorageScope[keyof typeof StorageScope]
