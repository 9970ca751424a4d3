// Original file: ../../proto/memoryd/v1/graph.proto

import type { Scope as _memoryd_v1_Scope, Scope__Output as _memoryd_v1_Scope__Output } from '../../memoryd/v1/Scope';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';

export interface GraphEpisode {
  'id'?: (string);
  /**
   * extraction or human.
   */
  'kind'?: (string);
  'scope'?: (_memoryd_v1_Scope);
  'agentId'?: (string);
  'endUserId'?: (string);
  /**
   * The conversation (extraction) or the key that asserted it (human).
   */
  'source'?: (string);
  'createdAt'?: (_google_protobuf_Timestamp | null);
  'facts'?: (number);
  'entities'?: (number);
  'model'?: (string);
  'tokensIn'?: (number);
  'tokensOut'?: (number);
  /**
   * At most 600 characters, redacted.
   */
  'digest'?: (string);
}

export interface GraphEpisode__Output {
  'id': (string);
  /**
   * extraction or human.
   */
  'kind': (string);
  'scope': (_memoryd_v1_Scope__Output);
  'agentId': (string);
  'endUserId': (string);
  /**
   * The conversation (extraction) or the key that asserted it (human).
   */
  'source': (string);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
  'facts': (number);
  'entities': (number);
  'model': (string);
  'tokensIn': (number);
  'tokensOut': (number);
  /**
   * At most 600 characters, redacted.
   */
  'digest': (string);
}
