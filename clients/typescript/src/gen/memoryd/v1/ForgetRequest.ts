// Original file: ../../proto/memoryd/v1/memory.proto


/**
 * ForgetRequest deletes one memory.
 */
export interface ForgetRequest {
  /**
   * The acting agent. Required.
   */
  'agentId'?: (string);
  /**
   * The contact being served.
   */
  'endUserId'?: (string);
  /**
   * The memory id. Required.
   */
  'memoryId'?: (string);
}

/**
 * ForgetRequest deletes one memory.
 */
export interface ForgetRequest__Output {
  /**
   * The acting agent. Required.
   */
  'agentId': (string);
  /**
   * The contact being served.
   */
  'endUserId': (string);
  /**
   * The memory id. Required.
   */
  'memoryId': (string);
}
