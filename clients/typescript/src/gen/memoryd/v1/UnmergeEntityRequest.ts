// Original file: ../../proto/memoryd/v1/graph.proto


export interface UnmergeEntityRequest {
  /**
   * The entity a merge folded away (MergeEntities' source_entity_id).
   */
  'entityId'?: (string);
}

export interface UnmergeEntityRequest__Output {
  /**
   * The entity a merge folded away (MergeEntities' source_entity_id).
   */
  'entityId': (string);
}
