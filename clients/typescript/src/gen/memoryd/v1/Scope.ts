// Original file: ../../proto/memoryd/v1/memory.proto

/**
 * Scope decides who can see a memory.
 */
export const Scope = {
  /**
   * Treated as SCOPE_PRIVATE on writes; on filters it means "no scope filter".
   */
  SCOPE_UNSPECIFIED: 'SCOPE_UNSPECIFIED',
  /**
   * Only the author agent sees it. The default.
   */
  SCOPE_PRIVATE: 'SCOPE_PRIVATE',
  /**
   * Every agent of the tenant sees it; hits carry the author agent.
   */
  SCOPE_SHARED: 'SCOPE_SHARED',
  /**
   * Human-authored, workspace-wide: every agent of the tenant sees it.
   */
  SCOPE_TENANT: 'SCOPE_TENANT',
  /**
   * Attached to one contact: seen only by requests serving that end_user_id.
   * Writing it requires `end_user_id`.
   */
  SCOPE_END_USER: 'SCOPE_END_USER',
} as const;

/**
 * Scope decides who can see a memory.
 */
export type Scope =
  /**
   * Treated as SCOPE_PRIVATE on writes; on filters it means "no scope filter".
   */
  | 'SCOPE_UNSPECIFIED'
  | 0
  /**
   * Only the author agent sees it. The default.
   */
  | 'SCOPE_PRIVATE'
  | 1
  /**
   * Every agent of the tenant sees it; hits carry the author agent.
   */
  | 'SCOPE_SHARED'
  | 2
  /**
   * Human-authored, workspace-wide: every agent of the tenant sees it.
   */
  | 'SCOPE_TENANT'
  | 3
  /**
   * Attached to one contact: seen only by requests serving that end_user_id.
   * Writing it requires `end_user_id`.
   */
  | 'SCOPE_END_USER'
  | 4

/**
 * Scope decides who can see a memory.
 */
export type Scope__Output = typeof Scope[keyof typeof Scope]
