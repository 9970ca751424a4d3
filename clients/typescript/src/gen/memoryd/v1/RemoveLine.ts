// Original file: ../../proto/memoryd/v1/profile.proto


/**
 * RemoveLine deletes the first line equal to `line` (exact match).
 */
export interface RemoveLine {
  /**
   * Limit the search to this section; empty searches every section.
   */
  'section'?: (string);
  /**
   * The exact line to remove.
   */
  'line'?: (string);
  /**
   * Target `## Pinned` instead of `section`.
   */
  'pinned'?: (boolean);
}

/**
 * RemoveLine deletes the first line equal to `line` (exact match).
 */
export interface RemoveLine__Output {
  /**
   * Limit the search to this section; empty searches every section.
   */
  'section': (string);
  /**
   * The exact line to remove.
   */
  'line': (string);
  /**
   * Target `## Pinned` instead of `section`.
   */
  'pinned': (boolean);
}
