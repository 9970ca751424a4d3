// Original file: ../../proto/memoryd/v1/keys.proto

/**
 * KeyScope narrows what a key may do within its role.
 */
export const KeyScope = {
  /**
   * Everything its role allows (as KEY_SCOPE_ALL).
   */
  KEY_SCOPE_UNSPECIFIED: 'KEY_SCOPE_UNSPECIFIED',
  KEY_SCOPE_ALL: 'KEY_SCOPE_ALL',
  /**
   * No write RPC at all.
   */
  KEY_SCOPE_READ_ONLY: 'KEY_SCOPE_READ_ONLY',
  /**
   * Writes, but not Forget, EraseEndUser, RevokeKey, ApplyFindings, ForgetFact or MergeEntities.
   */
  KEY_SCOPE_NON_DESTRUCTIVE: 'KEY_SCOPE_NON_DESTRUCTIVE',
} as const;

/**
 * KeyScope narrows what a key may do within its role.
 */
export type KeyScope =
  /**
   * Everything its role allows (as KEY_SCOPE_ALL).
   */
  | 'KEY_SCOPE_UNSPECIFIED'
  | 0
  | 'KEY_SCOPE_ALL'
  | 1
  /**
   * No write RPC at all.
   */
  | 'KEY_SCOPE_READ_ONLY'
  | 2
  /**
   * Writes, but not Forget, EraseEndUser, RevokeKey, ApplyFindings, ForgetFact or MergeEntities.
   */
  | 'KEY_SCOPE_NON_DESTRUCTIVE'
  | 3

/**
 * KeyScope narrows what a key may do within its role.
 */
export type KeyScope__Output = typeof KeyScope[keyof typeof KeyScope]
