// Original file: ../../proto/memoryd/v1/memory.proto

import type { MemorizeResponse as _memoryd_v1_MemorizeResponse, MemorizeResponse__Output as _memoryd_v1_MemorizeResponse__Output } from '../../memoryd/v1/MemorizeResponse';

/**
 * MemorizeBatchResponse has one result per item, in request order.
 */
export interface MemorizeBatchResponse {
  /**
   * Same length and order as the request's items.
   */
  'results'?: (_memoryd_v1_MemorizeResponse)[];
}

/**
 * MemorizeBatchResponse has one result per item, in request order.
 */
export interface MemorizeBatchResponse__Output {
  /**
   * Same length and order as the request's items.
   */
  'results': (_memoryd_v1_MemorizeResponse__Output)[];
}
