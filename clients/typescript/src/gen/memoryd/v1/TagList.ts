// Original file: ../../proto/memoryd/v1/memory.proto


/**
 * TagList wraps tags so an update can tell "set to empty" from "unchanged".
 */
export interface TagList {
  /**
   * At most 32 tags of 1-64 chars.
   */
  'values'?: (string)[];
}

/**
 * TagList wraps tags so an update can tell "set to empty" from "unchanged".
 */
export interface TagList__Output {
  /**
   * At most 32 tags of 1-64 chars.
   */
  'values': (string)[];
}
