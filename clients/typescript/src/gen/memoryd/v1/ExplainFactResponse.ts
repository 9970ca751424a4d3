// Original file: ../../proto/memoryd/v1/graph.proto

import type { GraphFact as _memoryd_v1_GraphFact, GraphFact__Output as _memoryd_v1_GraphFact__Output } from '../../memoryd/v1/GraphFact';

export interface ExplainFactResponse {
  'fact'?: (_memoryd_v1_GraphFact | null);
  /**
   * Facts it invalidated, oldest first.
   */
  'superseded'?: (_memoryd_v1_GraphFact)[];
  /**
   * The fact that invalidated it (unset when none).
   */
  'supersededBy'?: (_memoryd_v1_GraphFact | null);
}

export interface ExplainFactResponse__Output {
  'fact': (_memoryd_v1_GraphFact__Output | null);
  /**
   * Facts it invalidated, oldest first.
   */
  'superseded': (_memoryd_v1_GraphFact__Output)[];
  /**
   * The fact that invalidated it (unset when none).
   */
  'supersededBy': (_memoryd_v1_GraphFact__Output | null);
}
