// Original file: ../../proto/memoryd/v1/keys.proto

import type { KeyRole as _memoryd_v1_KeyRole, KeyRole__Output as _memoryd_v1_KeyRole__Output } from '../../memoryd/v1/KeyRole';
import type { KeyScope as _memoryd_v1_KeyScope, KeyScope__Output as _memoryd_v1_KeyScope__Output } from '../../memoryd/v1/KeyScope';

/**
 * CreateKeyRequest: the role is required; agent_id only for agent keys (max 128 chars).
 */
export interface CreateKeyRequest {
  'role'?: (_memoryd_v1_KeyRole);
  'agentId'?: (string);
  /**
   * A label for people, at most 200 characters.
   */
  'name'?: (string);
  /**
   * Unspecified: all. A scoped key creates keys of its own scope or read-only ones only.
   */
  'scope'?: (_memoryd_v1_KeyScope);
}

/**
 * CreateKeyRequest: the role is required; agent_id only for agent keys (max 128 chars).
 */
export interface CreateKeyRequest__Output {
  'role': (_memoryd_v1_KeyRole__Output);
  'agentId': (string);
  /**
   * A label for people, at most 200 characters.
   */
  'name': (string);
  /**
   * Unspecified: all. A scoped key creates keys of its own scope or read-only ones only.
   */
  'scope': (_memoryd_v1_KeyScope__Output);
}
