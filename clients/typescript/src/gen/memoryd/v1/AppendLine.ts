// Original file: ../../proto/memoryd/v1/profile.proto


/**
 * AppendLine adds one line at the end of a section, creating the section
 * (at the end of the document; Pinned at the top) if it does not exist.
 */
export interface AppendLine {
  /**
   * Section heading without `## `, 1-100 chars, no newline. Ignored when
   * `pinned` is set.
   */
  'section'?: (string);
  /**
   * One line, 1-2,000 chars, no newline, not a `#` heading.
   */
  'line'?: (string);
  /**
   * Target `## Pinned` instead of `section`.
   */
  'pinned'?: (boolean);
}

/**
 * AppendLine adds one line at the end of a section, creating the section
 * (at the end of the document; Pinned at the top) if it does not exist.
 */
export interface AppendLine__Output {
  /**
   * Section heading without `## `, 1-100 chars, no newline. Ignored when
   * `pinned` is set.
   */
  'section': (string);
  /**
   * One line, 1-2,000 chars, no newline, not a `#` heading.
   */
  'line': (string);
  /**
   * Target `## Pinned` instead of `section`.
   */
  'pinned': (boolean);
}
