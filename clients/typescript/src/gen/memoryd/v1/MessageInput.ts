// Original file: ../../proto/memoryd/v1/conversation.proto

import type { Role as _memoryd_v1_Role, Role__Output as _memoryd_v1_Role__Output } from '../../memoryd/v1/Role';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';

/**
 * MessageInput is one message to append.
 */
export interface MessageInput {
  /**
   * The client's id of the message, unique in the conversation. Required (1-128 chars of
   * [A-Za-z0-9._:@-]); appending the same id again is a no-op.
   */
  'messageId'?: (string);
  'role'?: (_memoryd_v1_Role);
  'content'?: (string);
  /**
   * The tool, for ROLE_TOOL (and optionally for the assistant's tool calls).
   */
  'toolName'?: (string);
  'toolCallId'?: (string);
  /**
   * When it was said; default: when it was appended. Between 1900-01-01 and
   * 9999-12-31 (UTC), nanos in [0, 999999999].
   */
  'createdAt'?: (_google_protobuf_Timestamp | null);
}

/**
 * MessageInput is one message to append.
 */
export interface MessageInput__Output {
  /**
   * The client's id of the message, unique in the conversation. Required (1-128 chars of
   * [A-Za-z0-9._:@-]); appending the same id again is a no-op.
   */
  'messageId': (string);
  'role': (_memoryd_v1_Role__Output);
  'content': (string);
  /**
   * The tool, for ROLE_TOOL (and optionally for the assistant's tool calls).
   */
  'toolName': (string);
  'toolCallId': (string);
  /**
   * When it was said; default: when it was appended. Between 1900-01-01 and
   * 9999-12-31 (UTC), nanos in [0, 999999999].
   */
  'createdAt': (_google_protobuf_Timestamp__Output | null);
}
