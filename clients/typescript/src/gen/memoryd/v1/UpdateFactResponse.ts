// Original file: ../../proto/memoryd/v1/graph.proto

import type { GraphFact as _memoryd_v1_GraphFact, GraphFact__Output as _memoryd_v1_GraphFact__Output } from '../../memoryd/v1/GraphFact';

export interface UpdateFactResponse {
  'fact'?: (_memoryd_v1_GraphFact | null);
}

export interface UpdateFactResponse__Output {
  'fact': (_memoryd_v1_GraphFact__Output | null);
}
