// Original file: ../../proto/memoryd/v1/graph.proto

import type { GraphEntity as _memoryd_v1_GraphEntity, GraphEntity__Output as _memoryd_v1_GraphEntity__Output } from '../../memoryd/v1/GraphEntity';

export interface UnmergeEntityResponse {
  /**
   * The entity, in use again.
   */
  'entity'?: (_memoryd_v1_GraphEntity | null);
  /**
   * The entity it had been folded into, without its names.
   */
  'target'?: (_memoryd_v1_GraphEntity | null);
  /**
   * The facts moved back.
   */
  'factsMoved'?: (number);
}

export interface UnmergeEntityResponse__Output {
  /**
   * The entity, in use again.
   */
  'entity': (_memoryd_v1_GraphEntity__Output | null);
  /**
   * The entity it had been folded into, without its names.
   */
  'target': (_memoryd_v1_GraphEntity__Output | null);
  /**
   * The facts moved back.
   */
  'factsMoved': (number);
}
