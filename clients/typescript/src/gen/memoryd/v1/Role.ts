// Original file: ../../proto/memoryd/v1/conversation.proto

/**
 * Role says who wrote a message.
 */
export const Role = {
  ROLE_UNSPECIFIED: 'ROLE_UNSPECIFIED',
  ROLE_USER: 'ROLE_USER',
  ROLE_ASSISTANT: 'ROLE_ASSISTANT',
  ROLE_SYSTEM: 'ROLE_SYSTEM',
  /**
   * A tool's result; `tool_name` is required.
   */
  ROLE_TOOL: 'ROLE_TOOL',
} as const;

/**
 * Role says who wrote a message.
 */
export type Role =
  | 'ROLE_UNSPECIFIED'
  | 0
  | 'ROLE_USER'
  | 1
  | 'ROLE_ASSISTANT'
  | 2
  | 'ROLE_SYSTEM'
  | 3
  /**
   * A tool's result; `tool_name` is required.
   */
  | 'ROLE_TOOL'
  | 4

/**
 * Role says who wrote a message.
 */
export type Role__Output = typeof Role[keyof typeof Role]
