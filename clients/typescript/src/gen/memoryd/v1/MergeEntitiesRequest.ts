// Original file: ../../proto/memoryd/v1/graph.proto


export interface MergeEntitiesRequest {
  'sourceEntityId'?: (string);
  'targetEntityId'?: (string);
}

export interface MergeEntitiesRequest__Output {
  'sourceEntityId': (string);
  'targetEntityId': (string);
}
