// Original file: ../../proto/memoryd/v1/memory.proto

import type { Memory as _memoryd_v1_Memory, Memory__Output as _memoryd_v1_Memory__Output } from '../../memoryd/v1/Memory';

/**
 * UpdateMemoryResponse returns the updated memory.
 */
export interface UpdateMemoryResponse {
  /**
   * The memory after the update.
   */
  'memory'?: (_memoryd_v1_Memory | null);
}

/**
 * UpdateMemoryResponse returns the updated memory.
 */
export interface UpdateMemoryResponse__Output {
  /**
   * The memory after the update.
   */
  'memory': (_memoryd_v1_Memory__Output | null);
}
