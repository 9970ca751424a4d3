// Original file: ../../proto/memoryd/v1/memory.proto


/**
 * GetMemoryHistoryRequest names a memory as GetMemoryRequest does.
 */
export interface GetMemoryHistoryRequest {
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
 * GetMemoryHistoryRequest names a memory as GetMemoryRequest does.
 */
export interface GetMemoryHistoryRequest__Output {
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
