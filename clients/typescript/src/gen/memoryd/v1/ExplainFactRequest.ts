// Original file: ../../proto/memoryd/v1/graph.proto


export interface ExplainFactRequest {
  'agentId'?: (string);
  'endUserId'?: (string);
  'factId'?: (string);
}

export interface ExplainFactRequest__Output {
  'agentId': (string);
  'endUserId': (string);
  'factId': (string);
}
