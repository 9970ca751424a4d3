// Original file: ../../proto/memoryd/v1/memory.proto

/**
 * MemoryStatus is the lifecycle state of a row. Only Forget deletes a row:
 * archived and superseded memories stay readable by id and can be restored.
 */
export const MemoryStatus = {
  /**
   * Never stored; in a filter, means the default (active only).
   */
  MEMORY_STATUS_UNSPECIFIED: 'MEMORY_STATUS_UNSPECIFIED',
  /**
   * Searchable: Recall, ListMemories and deduplication see it.
   */
  MEMORY_STATUS_ACTIVE: 'MEMORY_STATUS_ACTIVE',
  /**
   * Hidden from Recall and default listing (e.g. a review archived it).
   */
  MEMORY_STATUS_ARCHIVED: 'MEMORY_STATUS_ARCHIVED',
  /**
   * Merged into or corrected by `superseded_by`; hidden like archived.
   */
  MEMORY_STATUS_SUPERSEDED: 'MEMORY_STATUS_SUPERSEDED',
} as const;

/**
 * MemoryStatus is the lifecycle state of a row. Only Forget deletes a row:
 * archived and superseded memories stay readable by id and can be restored.
 */
export type MemoryStatus =
  /**
   * Never stored; in a filter, means the default (active only).
   */
  | 'MEMORY_STATUS_UNSPECIFIED'
  | 0
  /**
   * Searchable: Recall, ListMemories and deduplication see it.
   */
  | 'MEMORY_STATUS_ACTIVE'
  | 1
  /**
   * Hidden from Recall and default listing (e.g. a review archived it).
   */
  | 'MEMORY_STATUS_ARCHIVED'
  | 2
  /**
   * Merged into or corrected by `superseded_by`; hidden like archived.
   */
  | 'MEMORY_STATUS_SUPERSEDED'
  | 3

/**
 * MemoryStatus is the lifecycle state of a row. Only Forget deletes a row:
 * archived and superseded memories stay readable by id and can be restored.
 */
export type MemoryStatus__Output = typeof MemoryStatus[keyof typeof MemoryStatus]
