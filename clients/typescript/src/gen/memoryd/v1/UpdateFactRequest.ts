// Original file: ../../proto/memoryd/v1/graph.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';
import type { FactStatus as _memoryd_v1_FactStatus, FactStatus__Output as _memoryd_v1_FactStatus__Output } from '../../memoryd/v1/FactStatus';

export interface UpdateFactRequest {
  'factId'?: (string);
  /**
   * The fact stops holding at this date.
   */
  'validTo'?: (_google_protobuf_Timestamp | null);
  /**
   * FACT_STATUS_ACTIVE approves a pending fact or restores an archived or
   * invalidated one (an invalidation undone: its end is cleared, set
   * `valid_to` beside it to keep one; FAILED_PRECONDITION naming
   * FACT_SUPERSEDED while a fact that cannot hold beside it does);
   * FACT_STATUS_INVALIDATED ends one now.
   */
  'status'?: (_memoryd_v1_FactStatus);
  'pinned'?: (boolean);
  '_pinned'?: "pinned";
}

export interface UpdateFactRequest__Output {
  'factId': (string);
  /**
   * The fact stops holding at this date.
   */
  'validTo': (_google_protobuf_Timestamp__Output | null);
  /**
   * FACT_STATUS_ACTIVE approves a pending fact or restores an archived or
   * invalidated one (an invalidation undone: its end is cleared, set
   * `valid_to` beside it to keep one; FAILED_PRECONDITION naming
   * FACT_SUPERSEDED while a fact that cannot hold beside it does);
   * FACT_STATUS_INVALIDATED ends one now.
   */
  'status': (_memoryd_v1_FactStatus__Output);
  'pinned'?: (boolean);
  '_pinned'?: "pinned";
}
