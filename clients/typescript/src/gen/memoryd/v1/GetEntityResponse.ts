// Original file: ../../proto/memoryd/v1/graph.proto

import type { GraphEntity as _memoryd_v1_GraphEntity, GraphEntity__Output as _memoryd_v1_GraphEntity__Output } from '../../memoryd/v1/GraphEntity';

export interface GetEntityResponse {
  'entity'?: (_memoryd_v1_GraphEntity | null);
  /**
   * Ids of the visible memories whose source_id is this entity.
   */
  'annotatedBy'?: (string)[];
}

export interface GetEntityResponse__Output {
  'entity': (_memoryd_v1_GraphEntity__Output | null);
  /**
   * Ids of the visible memories whose source_id is this entity.
   */
  'annotatedBy': (string)[];
}
