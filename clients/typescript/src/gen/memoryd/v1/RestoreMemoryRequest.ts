// Original file: ../../proto/memoryd/v1/memory.proto


/**
 * RestoreMemoryRequest names one archived or superseded memory.
 */
export interface RestoreMemoryRequest {
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
 * RestoreMemoryRequest names one archived or superseded memory.
 */
export interface RestoreMemoryRequest__Output {
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
