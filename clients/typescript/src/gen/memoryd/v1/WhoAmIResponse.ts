// Original file: ../../proto/memoryd/v1/keys.proto

import type { KeyRole as _memoryd_v1_KeyRole, KeyRole__Output as _memoryd_v1_KeyRole__Output } from '../../memoryd/v1/KeyRole';
import type { KeyScope as _memoryd_v1_KeyScope, KeyScope__Output as _memoryd_v1_KeyScope__Output } from '../../memoryd/v1/KeyScope';

/**
 * WhoAmIResponse describes the caller as memoryd verified it.
 */
export interface WhoAmIResponse {
  /**
   * The tenant the calls act on (a system key: the `x-tenant-id` of this call).
   */
  'tenantId'?: (string);
  'role'?: (_memoryd_v1_KeyRole);
  /**
   * Empty in protected mode (no key exists yet; a loopback caller is its tenant's admin).
   */
  'keyId'?: (string);
  /**
   * Set: the key is pinned to this agent.
   */
  'agentId'?: (string);
  /**
   * True in protected mode.
   */
  'protectedMode'?: (boolean);
  'scope'?: (_memoryd_v1_KeyScope);
}

/**
 * WhoAmIResponse describes the caller as memoryd verified it.
 */
export interface WhoAmIResponse__Output {
  /**
   * The tenant the calls act on (a system key: the `x-tenant-id` of this call).
   */
  'tenantId': (string);
  'role': (_memoryd_v1_KeyRole__Output);
  /**
   * Empty in protected mode (no key exists yet; a loopback caller is its tenant's admin).
   */
  'keyId': (string);
  /**
   * Set: the key is pinned to this agent.
   */
  'agentId': (string);
  /**
   * True in protected mode.
   */
  'protectedMode': (boolean);
  'scope': (_memoryd_v1_KeyScope__Output);
}
