// Original file: ../../proto/memoryd/v1/graph.proto

import type { GraphFact as _memoryd_v1_GraphFact, GraphFact__Output as _memoryd_v1_GraphFact__Output } from '../../memoryd/v1/GraphFact';
import type { EntityPair as _memoryd_v1_EntityPair, EntityPair__Output as _memoryd_v1_EntityPair__Output } from '../../memoryd/v1/EntityPair';

export interface AssertFactResponse {
  'fact'?: (_memoryd_v1_GraphFact | null);
  /**
   * "add", "restate" (mention_count raised), "supersede" (older facts invalidated) or "superseded"
   * (a later fact already holds; stored already ended).
   */
  'action'?: (string);
  'invalidatedFactIds'?: (string)[];
  /**
   * New entities whose names are close to an existing one's: candidates for MergeEntities.
   */
  'possibleDuplicates'?: (_memoryd_v1_EntityPair)[];
}

export interface AssertFactResponse__Output {
  'fact': (_memoryd_v1_GraphFact__Output | null);
  /**
   * "add", "restate" (mention_count raised), "supersede" (older facts invalidated) or "superseded"
   * (a later fact already holds; stored already ended).
   */
  'action': (string);
  'invalidatedFactIds': (string)[];
  /**
   * New entities whose names are close to an existing one's: candidates for MergeEntities.
   */
  'possibleDuplicates': (_memoryd_v1_EntityPair__Output)[];
}
