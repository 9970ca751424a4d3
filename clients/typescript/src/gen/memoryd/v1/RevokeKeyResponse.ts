// Original file: ../../proto/memoryd/v1/keys.proto

import type { ApiKey as _memoryd_v1_ApiKey, ApiKey__Output as _memoryd_v1_ApiKey__Output } from '../../memoryd/v1/ApiKey';

/**
 * RevokeKeyResponse gives the key as revoked.
 */
export interface RevokeKeyResponse {
  'key'?: (_memoryd_v1_ApiKey | null);
}

/**
 * RevokeKeyResponse gives the key as revoked.
 */
export interface RevokeKeyResponse__Output {
  'key': (_memoryd_v1_ApiKey__Output | null);
}
