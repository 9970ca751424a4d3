// Original file: ../../proto/memoryd/v1/keys.proto

import type { ApiKey as _memoryd_v1_ApiKey, ApiKey__Output as _memoryd_v1_ApiKey__Output } from '../../memoryd/v1/ApiKey';

/**
 * CreateKeyResponse holds the only copy of the secret memoryd hands out.
 */
export interface CreateKeyResponse {
  'key'?: (_memoryd_v1_ApiKey | null);
  /**
   * The bearer token: send it as `authorization: Bearer <token>`.
   */
  'token'?: (string);
}

/**
 * CreateKeyResponse holds the only copy of the secret memoryd hands out.
 */
export interface CreateKeyResponse__Output {
  'key': (_memoryd_v1_ApiKey__Output | null);
  /**
   * The bearer token: send it as `authorization: Bearer <token>`.
   */
  'token': (string);
}
