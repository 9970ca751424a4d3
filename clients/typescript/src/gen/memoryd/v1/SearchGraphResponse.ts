// Original file: ../../proto/memoryd/v1/graph.proto

import type { GraphFact as _memoryd_v1_GraphFact, GraphFact__Output as _memoryd_v1_GraphFact__Output } from '../../memoryd/v1/GraphFact';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';

export interface SearchGraphResponse {
  /**
   * Best first.
   */
  'facts'?: (_memoryd_v1_GraphFact)[];
  /**
   * The exact prompt block ("" when nothing is valid).
   */
  'block'?: (string);
  'tokens'?: (number);
  'asOf'?: (_google_protobuf_Timestamp | null);
}

export interface SearchGraphResponse__Output {
  /**
   * Best first.
   */
  'facts': (_memoryd_v1_GraphFact__Output)[];
  /**
   * The exact prompt block ("" when nothing is valid).
   */
  'block': (string);
  'tokens': (number);
  'asOf': (_google_protobuf_Timestamp__Output | null);
}
