// Original file: ../../proto/memoryd/v1/graph.proto

import type { MergeSuggestion as _memoryd_v1_MergeSuggestion, MergeSuggestion__Output as _memoryd_v1_MergeSuggestion__Output } from '../../memoryd/v1/MergeSuggestion';

export interface ListMergeSuggestionsResponse {
  'suggestions'?: (_memoryd_v1_MergeSuggestion)[];
  /**
   * Empty on the last page.
   */
  'nextPageToken'?: (string);
}

export interface ListMergeSuggestionsResponse__Output {
  'suggestions': (_memoryd_v1_MergeSuggestion__Output)[];
  /**
   * Empty on the last page.
   */
  'nextPageToken': (string);
}
