// Original file: ../../proto/memoryd/v1/memory.proto


/**
 * UsedResult says whether the runtime used one recalled memory.
 */
export interface UsedResult {
  /**
   * The memory's full id.
   */
  'id'?: (string);
  /**
   * Whether the runtime used it.
   */
  'used'?: (boolean);
}

/**
 * UsedResult says whether the runtime used one recalled memory.
 */
export interface UsedResult__Output {
  /**
   * The memory's full id.
   */
  'id': (string);
  /**
   * Whether the runtime used it.
   */
  'used': (boolean);
}
