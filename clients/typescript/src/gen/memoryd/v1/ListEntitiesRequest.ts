// Original file: ../../proto/memoryd/v1/graph.proto


export interface ListEntitiesRequest {
  'agentId'?: (string);
  'endUserId'?: (string);
  /**
   * 1-200; 0 means 50.
   */
  'pageSize'?: (number);
  'pageToken'?: (string);
  /**
   * True: only the entities a merge folded away (each names `merged_into`), to undo a merge with
   * UnmergeEntity.
   */
  'merged'?: (boolean);
}

export interface ListEntitiesRequest__Output {
  'agentId': (string);
  'endUserId': (string);
  /**
   * 1-200; 0 means 50.
   */
  'pageSize': (number);
  'pageToken': (string);
  /**
   * True: only the entities a merge folded away (each names `merged_into`), to undo a merge with
   * UnmergeEntity.
   */
  'merged': (boolean);
}
