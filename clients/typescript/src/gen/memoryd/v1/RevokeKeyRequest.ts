// Original file: ../../proto/memoryd/v1/keys.proto


/**
 * RevokeKeyRequest names a key of the caller's tenant.
 */
export interface RevokeKeyRequest {
  'keyId'?: (string);
}

/**
 * RevokeKeyRequest names a key of the caller's tenant.
 */
export interface RevokeKeyRequest__Output {
  'keyId': (string);
}
