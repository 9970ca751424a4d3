// Original file: ../../proto/memoryd/v1/graph.proto

import type { EntityType as _memoryd_v1_EntityType, EntityType__Output as _memoryd_v1_EntityType__Output } from '../../memoryd/v1/EntityType';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';
import type { Scope as _memoryd_v1_Scope, Scope__Output as _memoryd_v1_Scope__Output } from '../../memoryd/v1/Scope';

export interface AssertFactRequest {
  /**
   * Entity names, 1 to 200 chars; an existing entity of the scope is found by name or alias.
   */
  'subject'?: (string);
  'subjectType'?: (_memoryd_v1_EntityType);
  /**
   * Normalised to a lowercase word ("Billing contact" → billing_contact).
   */
  'predicate'?: (string);
  'object'?: (string);
  'objectType'?: (_memoryd_v1_EntityType);
  /**
   * The fact as one sentence, 1 to 1,000 chars.
   */
  'fact'?: (string);
  'validFrom'?: (_google_protobuf_Timestamp | null);
  /**
   * Whose fact it is: SCOPE_TENANT (the default), SCOPE_SHARED, SCOPE_PRIVATE (needs agent_id) or
   * SCOPE_END_USER (needs end_user_id).
   */
  'scope'?: (_memoryd_v1_Scope);
  'agentId'?: (string);
  'endUserId'?: (string);
  /**
   * Up to 128 chars. A retry with the same request id (the reply was lost) returns the fact as
   * stored and counts no second mention; without one, asserting the same fact again is a restatement.
   * The id of an earlier, different assertion is ALREADY_EXISTS (nothing written).
   */
  'requestId'?: (string);
}

export interface AssertFactRequest__Output {
  /**
   * Entity names, 1 to 200 chars; an existing entity of the scope is found by name or alias.
   */
  'subject': (string);
  'subjectType': (_memoryd_v1_EntityType__Output);
  /**
   * Normalised to a lowercase word ("Billing contact" → billing_contact).
   */
  'predicate': (string);
  'object': (string);
  'objectType': (_memoryd_v1_EntityType__Output);
  /**
   * The fact as one sentence, 1 to 1,000 chars.
   */
  'fact': (string);
  'validFrom': (_google_protobuf_Timestamp__Output | null);
  /**
   * Whose fact it is: SCOPE_TENANT (the default), SCOPE_SHARED, SCOPE_PRIVATE (needs agent_id) or
   * SCOPE_END_USER (needs end_user_id).
   */
  'scope': (_memoryd_v1_Scope__Output);
  'agentId': (string);
  'endUserId': (string);
  /**
   * Up to 128 chars. A retry with the same request id (the reply was lost) returns the fact as
   * stored and counts no second mention; without one, asserting the same fact again is a restatement.
   * The id of an earlier, different assertion is ALREADY_EXISTS (nothing written).
   */
  'requestId': (string);
}
