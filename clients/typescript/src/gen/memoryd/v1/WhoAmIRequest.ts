// Original file: ../../proto/memoryd/v1/keys.proto


/**
 * WhoAmIRequest asks about the call's own credentials.
 */
export interface WhoAmIRequest {
}

/**
 * WhoAmIRequest asks about the call's own credentials.
 */
export interface WhoAmIRequest__Output {
}
