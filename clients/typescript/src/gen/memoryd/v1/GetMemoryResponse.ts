// Original file: ../../proto/memoryd/v1/memory.proto

import type { Memory as _memoryd_v1_Memory, Memory__Output as _memoryd_v1_Memory__Output } from '../../memoryd/v1/Memory';

/**
 * GetMemoryResponse carries the memory.
 */
export interface GetMemoryResponse {
  /**
   * The memory.
   */
  'memory'?: (_memoryd_v1_Memory | null);
  /**
   * Ids of the visible active memories that annotate this one (their
   * source_id is this id), oldest first, at most 100: ListMemories with
   * filter.source_id pages through all of them. The other direction is
   * memory.source_id.
   */
  'annotatedBy'?: (string)[];
}

/**
 * GetMemoryResponse carries the memory.
 */
export interface GetMemoryResponse__Output {
  /**
   * The memory.
   */
  'memory': (_memoryd_v1_Memory__Output | null);
  /**
   * Ids of the visible active memories that annotate this one (their
   * source_id is this id), oldest first, at most 100: ListMemories with
   * filter.source_id pages through all of them. The other direction is
   * memory.source_id.
   */
  'annotatedBy': (string)[];
}
