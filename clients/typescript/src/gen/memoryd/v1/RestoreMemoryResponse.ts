// Original file: ../../proto/memoryd/v1/memory.proto

import type { Memory as _memoryd_v1_Memory, Memory__Output as _memoryd_v1_Memory__Output } from '../../memoryd/v1/Memory';

/**
 * RestoreMemoryResponse returns the memory, active again.
 */
export interface RestoreMemoryResponse {
  /**
   * The memory after the restore.
   */
  'memory'?: (_memoryd_v1_Memory | null);
}

/**
 * RestoreMemoryResponse returns the memory, active again.
 */
export interface RestoreMemoryResponse__Output {
  /**
   * The memory after the restore.
   */
  'memory': (_memoryd_v1_Memory__Output | null);
}
