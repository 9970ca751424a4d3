// Original file: ../../proto/memoryd/v1/memory.proto

/**
 * MemoryType is the kind of memory; it sets the salience and decay defaults.
 */
export const MemoryType = {
  /**
   * Treated as MEMORY_TYPE_EPISODIC on writes; no filter on reads.
   */
  MEMORY_TYPE_UNSPECIFIED: 'MEMORY_TYPE_UNSPECIFIED',
  /**
   * Something that happened at a time (salience 0.3, decay 0.02 per day).
   */
  MEMORY_TYPE_EPISODIC: 'MEMORY_TYPE_EPISODIC',
  /**
   * A durable fact or pattern (salience 0.5, decay 0.005 per day).
   */
  MEMORY_TYPE_SEMANTIC: 'MEMORY_TYPE_SEMANTIC',
} as const;

/**
 * MemoryType is the kind of memory; it sets the salience and decay defaults.
 */
export type MemoryType =
  /**
   * Treated as MEMORY_TYPE_EPISODIC on writes; no filter on reads.
   */
  | 'MEMORY_TYPE_UNSPECIFIED'
  | 0
  /**
   * Something that happened at a time (salience 0.3, decay 0.02 per day).
   */
  | 'MEMORY_TYPE_EPISODIC'
  | 1
  /**
   * A durable fact or pattern (salience 0.5, decay 0.005 per day).
   */
  | 'MEMORY_TYPE_SEMANTIC'
  | 2

/**
 * MemoryType is the kind of memory; it sets the salience and decay defaults.
 */
export type MemoryType__Output = typeof MemoryType[keyof typeof MemoryType]
