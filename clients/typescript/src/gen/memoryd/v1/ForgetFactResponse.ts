// Original file: ../../proto/memoryd/v1/graph.proto


export interface ForgetFactResponse {
  'factId'?: (string);
}

export interface ForgetFactResponse__Output {
  'factId': (string);
}
