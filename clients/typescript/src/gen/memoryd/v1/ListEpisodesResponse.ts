// Original file: ../../proto/memoryd/v1/graph.proto

import type { GraphEpisode as _memoryd_v1_GraphEpisode, GraphEpisode__Output as _memoryd_v1_GraphEpisode__Output } from '../../memoryd/v1/GraphEpisode';

export interface ListEpisodesResponse {
  'episodes'?: (_memoryd_v1_GraphEpisode)[];
  /**
   * Empty on the last page.
   */
  'nextPageToken'?: (string);
}

export interface ListEpisodesResponse__Output {
  'episodes': (_memoryd_v1_GraphEpisode__Output)[];
  /**
   * Empty on the last page.
   */
  'nextPageToken': (string);
}
