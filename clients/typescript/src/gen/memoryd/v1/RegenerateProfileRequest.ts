// Original file: ../../proto/memoryd/v1/profile.proto


/**
 * RegenerateProfileRequest asks for a new profile compiled from the archive.
 */
export interface RegenerateProfileRequest {
  /**
   * The agent. Required.
   */
  'agentId'?: (string);
}

/**
 * RegenerateProfileRequest asks for a new profile compiled from the archive.
 */
export interface RegenerateProfileRequest__Output {
  /**
   * The agent. Required.
   */
  'agentId': (string);
}
