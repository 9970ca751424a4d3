// Original file: ../../proto/memoryd/v1/graph.proto


/**
 * EntityPair names two entities a person may want to merge.
 */
export interface EntityPair {
  'entityId'?: (string);
  'similarEntityId'?: (string);
}

/**
 * EntityPair names two entities a person may want to merge.
 */
export interface EntityPair__Output {
  'entityId': (string);
  'similarEntityId': (string);
}
