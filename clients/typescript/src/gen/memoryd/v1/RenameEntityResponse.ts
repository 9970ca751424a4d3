// Original file: ../../proto/memoryd/v1/graph.proto

import type { GraphEntity as _memoryd_v1_GraphEntity, GraphEntity__Output as _memoryd_v1_GraphEntity__Output } from '../../memoryd/v1/GraphEntity';

export interface RenameEntityResponse {
  'entity'?: (_memoryd_v1_GraphEntity | null);
}

export interface RenameEntityResponse__Output {
  'entity': (_memoryd_v1_GraphEntity__Output | null);
}
