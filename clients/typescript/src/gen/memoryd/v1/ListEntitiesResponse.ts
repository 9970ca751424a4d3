// Original file: ../../proto/memoryd/v1/graph.proto

import type { GraphEntity as _memoryd_v1_GraphEntity, GraphEntity__Output as _memoryd_v1_GraphEntity__Output } from '../../memoryd/v1/GraphEntity';

export interface ListEntitiesResponse {
  'entities'?: (_memoryd_v1_GraphEntity)[];
  /**
   * Empty on the last page.
   */
  'nextPageToken'?: (string);
}

export interface ListEntitiesResponse__Output {
  'entities': (_memoryd_v1_GraphEntity__Output)[];
  /**
   * Empty on the last page.
   */
  'nextPageToken': (string);
}
