// Original file: ../../proto/memoryd/v1/memory.proto

import type { MemoryInput as _memoryd_v1_MemoryInput, MemoryInput__Output as _memoryd_v1_MemoryInput__Output } from '../../memoryd/v1/MemoryInput';

/**
 * MemorizeBatchRequest stores many memories for one agent.
 */
export interface MemorizeBatchRequest {
  /**
   * The acting (author) agent. Required.
   */
  'agentId'?: (string);
  /**
   * The contact being served; required if any item has SCOPE_END_USER.
   */
  'endUserId'?: (string);
  /**
   * 1 to 1,000 items.
   */
  'items'?: (_memoryd_v1_MemoryInput)[];
  /**
   * Default false: each item is deduplicated like Memorize (against the
   * store and the earlier items of the batch). True stores every item as
   * given, e.g. when importing a raw transcript turn by turn.
   */
  'skipDeduplication'?: (boolean);
  /**
   * Optional idempotency key, as MemorizeRequest.request_id: a retried batch
   * (e.g. after UNAVAILABLE or a lost reply) returns the rows the first call
   * committed instead of storing the batch twice.
   */
  'requestId'?: (string);
}

/**
 * MemorizeBatchRequest stores many memories for one agent.
 */
export interface MemorizeBatchRequest__Output {
  /**
   * The acting (author) agent. Required.
   */
  'agentId': (string);
  /**
   * The contact being served; required if any item has SCOPE_END_USER.
   */
  'endUserId': (string);
  /**
   * 1 to 1,000 items.
   */
  'items': (_memoryd_v1_MemoryInput__Output)[];
  /**
   * Default false: each item is deduplicated like Memorize (against the
   * store and the earlier items of the batch). True stores every item as
   * given, e.g. when importing a raw transcript turn by turn.
   */
  'skipDeduplication': (boolean);
  /**
   * Optional idempotency key, as MemorizeRequest.request_id: a retried batch
   * (e.g. after UNAVAILABLE or a lost reply) returns the rows the first call
   * committed instead of storing the batch twice.
   */
  'requestId': (string);
}
