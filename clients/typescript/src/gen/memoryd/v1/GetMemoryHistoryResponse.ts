// Original file: ../../proto/memoryd/v1/memory.proto

import type { MemoryHistoryEvent as _memoryd_v1_MemoryHistoryEvent, MemoryHistoryEvent__Output as _memoryd_v1_MemoryHistoryEvent__Output } from '../../memoryd/v1/MemoryHistoryEvent';
import type { Long } from '@grpc/proto-loader';

/**
 * GetMemoryHistoryResponse: the events, oldest first. Below the operator role the servings are
 * the acting agent's only (serving a contact: to that contact); operators see every one.
 */
export interface GetMemoryHistoryResponse {
  'events'?: (_memoryd_v1_MemoryHistoryEvent)[];
  /**
   * Servings of the memory in all (as the caller may see them); the history lists the latest 200.
   */
  'servingsTotal'?: (number | string | Long);
}

/**
 * GetMemoryHistoryResponse: the events, oldest first. Below the operator role the servings are
 * the acting agent's only (serving a contact: to that contact); operators see every one.
 */
export interface GetMemoryHistoryResponse__Output {
  'events': (_memoryd_v1_MemoryHistoryEvent__Output)[];
  /**
   * Servings of the memory in all (as the caller may see them); the history lists the latest 200.
   */
  'servingsTotal': (number);
}
