// Original file: ../../proto/memoryd/v1/graph.proto

import type { GraphFact as _memoryd_v1_GraphFact, GraphFact__Output as _memoryd_v1_GraphFact__Output } from '../../memoryd/v1/GraphFact';

export interface ListFactsResponse {
  'facts'?: (_memoryd_v1_GraphFact)[];
  /**
   * Empty on the last page.
   */
  'nextPageToken'?: (string);
}

export interface ListFactsResponse__Output {
  'facts': (_memoryd_v1_GraphFact__Output)[];
  /**
   * Empty on the last page.
   */
  'nextPageToken': (string);
}
