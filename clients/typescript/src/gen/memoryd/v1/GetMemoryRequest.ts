// Original file: ../../proto/memoryd/v1/memory.proto


/**
 * GetMemoryRequest names one memory.
 */
export interface GetMemoryRequest {
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
 * GetMemoryRequest names one memory.
 */
export interface GetMemoryRequest__Output {
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
