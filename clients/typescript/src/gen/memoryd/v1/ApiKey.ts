// Original file: ../../proto/memoryd/v1/keys.proto

import type { KeyRole as _memoryd_v1_KeyRole, KeyRole__Output as _memoryd_v1_KeyRole__Output } from '../../memoryd/v1/KeyRole';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';
import type { KeyScope as _memoryd_v1_KeyScope, KeyScope__Output as _memoryd_v1_KeyScope__Output } from '../../memoryd/v1/KeyScope';

/**
 * ApiKey describes a key (never its secret).
 */
export interface ApiKey {
  'keyId'?: (string);
  'tenantId'?: (string);
  'role'?: (_memoryd_v1_KeyRole);
  /**
   * Set: calls must name this agent_id.
   */
  'agentId'?: (string);
  'name'?: (string);
  'createdAt'?: (_google_protobuf_Timestamp | null);
  /**
   * Updated at most once a minute.
   */
  'lastUsedAt'?: (_google_protobuf_Timestamp | null);
  'revokedAt'?: (_google_protobuf_Timestamp | null);
  'scope'?: (_memoryd_v1_KeyScope);
}

/**
 * ApiKey describes a key (never its secret).
 */
export interface ApiKey__Output {
  'keyId': (string);
  'tenantId': (string);
  'role': (_memoryd_v1_KeyRole__Output);
  /**
   * Set: calls must name this agent_id.
   */
  'agentId': (string);
  'name': (string);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
  /**
   * Updated at most once a minute.
   */
  'lastUsedAt': (_google_protobuf_Timestamp__Output | null);
  'revokedAt': (_google_protobuf_Timestamp__Output | null);
  'scope': (_memoryd_v1_KeyScope__Output);
}
