// Original file: ../../proto/memoryd/v1/graph.proto

import type { EntityType as _memoryd_v1_EntityType, EntityType__Output as _memoryd_v1_EntityType__Output } from '../../memoryd/v1/EntityType';
import type { Scope as _memoryd_v1_Scope, Scope__Output as _memoryd_v1_Scope__Output } from '../../memoryd/v1/Scope';

/**
 * GraphEntity is a typed node.
 */
export interface GraphEntity {
  'id'?: (string);
  'name'?: (string);
  'entityType'?: (_memoryd_v1_EntityType);
  'aliases'?: (string)[];
  'scope'?: (_memoryd_v1_Scope);
  'agentId'?: (string);
  'endUserId'?: (string);
  /**
   * The entity a merge folded this one into (empty: in use).
   */
  'mergedInto'?: (string);
}

/**
 * GraphEntity is a typed node.
 */
export interface GraphEntity__Output {
  'id': (string);
  'name': (string);
  'entityType': (_memoryd_v1_EntityType__Output);
  'aliases': (string)[];
  'scope': (_memoryd_v1_Scope__Output);
  'agentId': (string);
  'endUserId': (string);
  /**
   * The entity a merge folded this one into (empty: in use).
   */
  'mergedInto': (string);
}
