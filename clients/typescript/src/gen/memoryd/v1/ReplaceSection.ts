// Original file: ../../proto/memoryd/v1/profile.proto


/**
 * ReplaceSection replaces a section's body (creating the section if needed).
 */
export interface ReplaceSection {
  /**
   * Section heading without `## `. Ignored when `pinned` is set.
   */
  'section'?: (string);
  /**
   * The new body: lines of text, none of them a `#` heading. Empty removes
   * every line but keeps the heading.
   */
  'content'?: (string);
  /**
   * Target `## Pinned` instead of `section`.
   */
  'pinned'?: (boolean);
}

/**
 * ReplaceSection replaces a section's body (creating the section if needed).
 */
export interface ReplaceSection__Output {
  /**
   * Section heading without `## `. Ignored when `pinned` is set.
   */
  'section': (string);
  /**
   * The new body: lines of text, none of them a `#` heading. Empty removes
   * every line but keeps the heading.
   */
  'content': (string);
  /**
   * Target `## Pinned` instead of `section`.
   */
  'pinned': (boolean);
}
