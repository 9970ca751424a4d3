// Original file: ../../proto/memoryd/v1/conversation.proto

import type { Role as _memoryd_v1_Role, Role__Output as _memoryd_v1_Role__Output } from '../../memoryd/v1/Role';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';
import type { Long } from '@grpc/proto-loader';

/**
 * ContextMessage is one message of the assembled context.
 */
export interface ContextMessage {
  /**
   * profile | summary | message | memory | graph (the memory-graph block, last,
   * when the agent's `graph.enabled` is on).
   */
  'kind'?: (string);
  'role'?: (_memoryd_v1_Role);
  'content'?: (string);
  'tokenCount'?: (number);
  /**
   * The message's seq (the last seq a summary covers); 0 for the profile and memories.
   */
  'seq'?: (number | string | Long);
  'toolName'?: (string);
  'at'?: (_google_protobuf_Timestamp | null);
}

/**
 * ContextMessage is one message of the assembled context.
 */
export interface ContextMessage__Output {
  /**
   * profile | summary | message | memory | graph (the memory-graph block, last,
   * when the agent's `graph.enabled` is on).
   */
  'kind': (string);
  'role': (_memoryd_v1_Role__Output);
  'content': (string);
  'tokenCount': (number);
  /**
   * The message's seq (the last seq a summary covers); 0 for the profile and memories.
   */
  'seq': (number);
  'toolName': (string);
  'at': (_google_protobuf_Timestamp__Output | null);
}
