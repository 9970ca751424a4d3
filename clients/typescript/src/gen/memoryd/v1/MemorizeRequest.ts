// Original file: ../../proto/memoryd/v1/memory.proto

import type { MemoryInput as _memoryd_v1_MemoryInput, MemoryInput__Output as _memoryd_v1_MemoryInput__Output } from '../../memoryd/v1/MemoryInput';

/**
 * MemorizeRequest stores one memory.
 */
export interface MemorizeRequest {
  /**
   * The acting (author) agent. Required.
   */
  'agentId'?: (string);
  /**
   * The contact being served; required for SCOPE_END_USER.
   */
  'endUserId'?: (string);
  /**
   * The memory to store.
   */
  'memory'?: (_memoryd_v1_MemoryInput | null);
  /**
   * Optional idempotency key, 1-128 chars of [A-Za-z0-9._:@-], unique per
   * agent. A retry with the same key within 24 hours (memorize.request_id_hours)
   * returns the memory the first call stored instead of storing it again, even
   * if that call's reply was lost (the key is committed with the row). The
   * same key with different content is ALREADY_EXISTS. Empty: no key.
   */
  'requestId'?: (string);
}

/**
 * MemorizeRequest stores one memory.
 */
export interface MemorizeRequest__Output {
  /**
   * The acting (author) agent. Required.
   */
  'agentId': (string);
  /**
   * The contact being served; required for SCOPE_END_USER.
   */
  'endUserId': (string);
  /**
   * The memory to store.
   */
  'memory': (_memoryd_v1_MemoryInput__Output | null);
  /**
   * Optional idempotency key, 1-128 chars of [A-Za-z0-9._:@-], unique per
   * agent. A retry with the same key within 24 hours (memorize.request_id_hours)
   * returns the memory the first call stored instead of storing it again, even
   * if that call's reply was lost (the key is committed with the row). The
   * same key with different content is ALREADY_EXISTS. Empty: no key.
   */
  'requestId': (string);
}
