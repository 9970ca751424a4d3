// Original file: ../../proto/memoryd/v1/graph.proto

import type { Scope as _memoryd_v1_Scope, Scope__Output as _memoryd_v1_Scope__Output } from '../../memoryd/v1/Scope';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';
import type { FactStatus as _memoryd_v1_FactStatus, FactStatus__Output as _memoryd_v1_FactStatus__Output } from '../../memoryd/v1/FactStatus';

/**
 * GraphFact is one dated edge with its provenance.
 */
export interface GraphFact {
  'id'?: (string);
  'subject'?: (string);
  'subjectId'?: (string);
  /**
   * A lowercase word, e.g. "billing_contact".
   */
  'predicate'?: (string);
  'object'?: (string);
  'objectId'?: (string);
  /**
   * The fact as one plain sentence.
   */
  'fact'?: (string);
  'scope'?: (_memoryd_v1_Scope);
  'agentId'?: (string);
  'endUserId'?: (string);
  /**
   * When it became true in the world (unset: not dated).
   */
  'validFrom'?: (_google_protobuf_Timestamp | null);
  /**
   * When it stopped being true (unset: still true).
   */
  'validTo'?: (_google_protobuf_Timestamp | null);
  /**
   * When memoryd learned it, and when it superseded it.
   */
  'createdAt'?: (_google_protobuf_Timestamp | null);
  'invalidatedAt'?: (_google_protobuf_Timestamp | null);
  'status'?: (_memoryd_v1_FactStatus);
  /**
   * The fact that superseded this one.
   */
  'invalidatedBy'?: (string);
  'mentionCount'?: (number);
  /**
   * The episodes that asserted it.
   */
  'sources'?: (string)[];
  'pinned'?: (boolean);
  /**
   * Search only: the expansion step that reached it (0: a seed) and its blended score.
   */
  'hop'?: (number);
  'score'?: (number | string);
  /**
   * How sure memoryd is of it, 0-1: a person's assertion 1, an extraction the
   * model's judgement (0.6 when it gave none), raised by each further
   * statement.
   */
  'confidence'?: (number | string);
  /**
   * When it was last stated (unset: only when created).
   */
  'lastSeenAt'?: (_google_protobuf_Timestamp | null);
}

/**
 * GraphFact is one dated edge with its provenance.
 */
export interface GraphFact__Output {
  'id': (string);
  'subject': (string);
  'subjectId': (string);
  /**
   * A lowercase word, e.g. "billing_contact".
   */
  'predicate': (string);
  'object': (string);
  'objectId': (string);
  /**
   * The fact as one plain sentence.
   */
  'fact': (string);
  'scope': (_memoryd_v1_Scope__Output);
  'agentId': (string);
  'endUserId': (string);
  /**
   * When it became true in the world (unset: not dated).
   */
  'validFrom': (_google_protobuf_Timestamp__Output | null);
  /**
   * When it stopped being true (unset: still true).
   */
  'validTo': (_google_protobuf_Timestamp__Output | null);
  /**
   * When memoryd learned it, and when it superseded it.
   */
  'createdAt': (_google_protobuf_Timestamp__Output | null);
  'invalidatedAt': (_google_protobuf_Timestamp__Output | null);
  'status': (_memoryd_v1_FactStatus__Output);
  /**
   * The fact that superseded this one.
   */
  'invalidatedBy': (string);
  'mentionCount': (number);
  /**
   * The episodes that asserted it.
   */
  'sources': (string)[];
  'pinned': (boolean);
  /**
   * Search only: the expansion step that reached it (0: a seed) and its blended score.
   */
  'hop': (number);
  'score': (number);
  /**
   * How sure memoryd is of it, 0-1: a person's assertion 1, an extraction the
   * model's judgement (0.6 when it gave none), raised by each further
   * statement.
   */
  'confidence': (number);
  /**
   * When it was last stated (unset: only when created).
   */
  'lastSeenAt': (_google_protobuf_Timestamp__Output | null);
}
