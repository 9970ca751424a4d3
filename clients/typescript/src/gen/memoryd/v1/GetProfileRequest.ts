// Original file: ../../proto/memoryd/v1/profile.proto


/**
 * GetProfileRequest names the agent.
 */
export interface GetProfileRequest {
  /**
   * The agent. Required.
   */
  'agentId'?: (string);
}

/**
 * GetProfileRequest names the agent.
 */
export interface GetProfileRequest__Output {
  /**
   * The agent. Required.
   */
  'agentId': (string);
}
