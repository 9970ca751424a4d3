// Original file: ../../proto/memoryd/v1/graph.proto


export interface GetEntityRequest {
  'agentId'?: (string);
  'endUserId'?: (string);
  'entityId'?: (string);
}

export interface GetEntityRequest__Output {
  'agentId': (string);
  'endUserId': (string);
  'entityId': (string);
}
