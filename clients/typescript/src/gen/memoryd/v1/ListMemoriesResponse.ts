// Original file: ../../proto/memoryd/v1/memory.proto

import type { Memory as _memoryd_v1_Memory, Memory__Output as _memoryd_v1_Memory__Output } from '../../memoryd/v1/Memory';

/**
 * ListMemoriesResponse is one page.
 */
export interface ListMemoriesResponse {
  /**
   * At most page_size memories.
   */
  'memories'?: (_memoryd_v1_Memory)[];
  /**
   * Empty on the last page.
   */
  'nextPageToken'?: (string);
}

/**
 * ListMemoriesResponse is one page.
 */
export interface ListMemoriesResponse__Output {
  /**
   * At most page_size memories.
   */
  'memories': (_memoryd_v1_Memory__Output)[];
  /**
   * Empty on the last page.
   */
  'nextPageToken': (string);
}
