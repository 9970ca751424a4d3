// Original file: ../../proto/memoryd/v1/graph.proto

import type { GraphEntity as _memoryd_v1_GraphEntity, GraphEntity__Output as _memoryd_v1_GraphEntity__Output } from '../../memoryd/v1/GraphEntity';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';

export interface MergeSuggestion {
  'suggestionId'?: (string);
  /**
   * The newer entity, and the one its name came close to.
   */
  'entity'?: (_memoryd_v1_GraphEntity | null);
  'similarEntity'?: (_memoryd_v1_GraphEntity | null);
  /**
   * Cosine similarity of the two names' embeddings.
   */
  'similarity'?: (number | string);
  /**
   * The two names, the similarity and the sentence that made the newer entity.
   */
  'evidence'?: (string);
  'createdAt'?: (_google_protobuf_Timestamp | null);
}

export interface MergeSuggestion__Output {
  'suggestionId': (string);
  /**
   * The newer entity, and the one its name came close to.
   */
  'entity': (_memoryd_v1_GraphEntity__Output | null);
  'similarEntity': (_memoryd_v1_GraphEntity__Output | null);
  /**
   * Cosine similarity of the two names' embeddings.
   */
  'similarity': (number);
  /**
   * The two names, the similarity and the sentence that made the newer entity.
   */
  'evidence': (string);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
}
