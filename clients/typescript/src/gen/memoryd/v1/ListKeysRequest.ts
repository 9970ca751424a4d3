// Original file: ../../proto/memoryd/v1/keys.proto


/**
 * ListKeysRequest lists the caller's tenant's keys.
 */
export interface ListKeysRequest {
}

/**
 * ListKeysRequest lists the caller's tenant's keys.
 */
export interface ListKeysRequest__Output {
}
