// Original file: ../../proto/memoryd/v1/memory.proto

import type { Memory as _memoryd_v1_Memory, Memory__Output as _memoryd_v1_Memory__Output } from '../../memoryd/v1/Memory';

/**
 * MemorizeResponse returns the stored (or deduplicated) memory.
 */
export interface MemorizeResponse {
  /**
   * The new row, or the existing row it was merged into.
   */
  'memory'?: (_memoryd_v1_Memory | null);
  /**
   * True when an existing near-duplicate was updated instead of inserting.
   */
  'deduplicated'?: (boolean);
}

/**
 * MemorizeResponse returns the stored (or deduplicated) memory.
 */
export interface MemorizeResponse__Output {
  /**
   * The new row, or the existing row it was merged into.
   */
  'memory': (_memoryd_v1_Memory__Output | null);
  /**
   * True when an existing near-duplicate was updated instead of inserting.
   */
  'deduplicated': (boolean);
}
