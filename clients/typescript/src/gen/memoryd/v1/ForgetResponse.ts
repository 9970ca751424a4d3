// Original file: ../../proto/memoryd/v1/memory.proto


/**
 * ForgetResponse confirms the deletion.
 */
export interface ForgetResponse {
  /**
   * The id that was deleted.
   */
  'memoryId'?: (string);
}

/**
 * ForgetResponse confirms the deletion.
 */
export interface ForgetResponse__Output {
  /**
   * The id that was deleted.
   */
  'memoryId': (string);
}
