// Original file: ../../proto/memoryd/v1/keys.proto

import type { ApiKey as _memoryd_v1_ApiKey, ApiKey__Output as _memoryd_v1_ApiKey__Output } from '../../memoryd/v1/ApiKey';

/**
 * ListKeysResponse holds the keys, oldest first.
 */
export interface ListKeysResponse {
  'keys'?: (_memoryd_v1_ApiKey)[];
}

/**
 * ListKeysResponse holds the keys, oldest first.
 */
export interface ListKeysResponse__Output {
  'keys': (_memoryd_v1_ApiKey__Output)[];
}
