// Original file: ../../proto/memoryd/v1/memory.proto

/**
 * TagMode says how a tag filter combines its tags.
 */
export const TagMode = {
  /**
   * Same as TAG_MODE_ANY.
   */
  TAG_MODE_UNSPECIFIED: 'TAG_MODE_UNSPECIFIED',
  /**
   * A memory matches if it carries at least one of the tags.
   */
  TAG_MODE_ANY: 'TAG_MODE_ANY',
  /**
   * A memory matches if it carries every one of the tags.
   */
  TAG_MODE_ALL: 'TAG_MODE_ALL',
} as const;

/**
 * TagMode says how a tag filter combines its tags.
 */
export type TagMode =
  /**
   * Same as TAG_MODE_ANY.
   */
  | 'TAG_MODE_UNSPECIFIED'
  | 0
  /**
   * A memory matches if it carries at least one of the tags.
   */
  | 'TAG_MODE_ANY'
  | 1
  /**
   * A memory matches if it carries every one of the tags.
   */
  | 'TAG_MODE_ALL'
  | 2

/**
 * TagMode says how a tag filter combines its tags.
 */
export type TagMode__Output = typeof TagMode[keyof typeof TagMode]
