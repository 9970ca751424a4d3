// Original file: ../../proto/memoryd/v1/keys.proto

/**
 * KeyRole: what a key may do; each role includes the ones before it.
 */
export const KeyRole = {
  KEY_ROLE_UNSPECIFIED: 'KEY_ROLE_UNSPECIFIED',
  /**
   * The archive, profile and conversation RPCs of the tenant, optionally pinned to one agent.
   */
  KEY_ROLE_AGENT: 'KEY_ROLE_AGENT',
  /**
   * Jobs, audits, usage reports, exports of the tenant.
   */
  KEY_ROLE_OPERATOR: 'KEY_ROLE_OPERATOR',
  /**
   * Keys, SCOPE_TENANT writes, erase, the audit log.
   */
  KEY_ROLE_ADMIN: 'KEY_ROLE_ADMIN',
  /**
   * An operator over every tenant (`x-tenant-id` names the tenant of each call).
   */
  KEY_ROLE_SYSTEM: 'KEY_ROLE_SYSTEM',
} as const;

/**
 * KeyRole: what a key may do; each role includes the ones before it.
 */
export type KeyRole =
  | 'KEY_ROLE_UNSPECIFIED'
  | 0
  /**
   * The archive, profile and conversation RPCs of the tenant, optionally pinned to one agent.
   */
  | 'KEY_ROLE_AGENT'
  | 1
  /**
   * Jobs, audits, usage reports, exports of the tenant.
   */
  | 'KEY_ROLE_OPERATOR'
  | 2
  /**
   * Keys, SCOPE_TENANT writes, erase, the audit log.
   */
  | 'KEY_ROLE_ADMIN'
  | 3
  /**
   * An operator over every tenant (`x-tenant-id` names the tenant of each call).
   */
  | 'KEY_ROLE_SYSTEM'
  | 4

/**
 * KeyRole: what a key may do; each role includes the ones before it.
 */
export type KeyRole__Output = typeof KeyRole[keyof typeof KeyRole]
