// Original file: ../../proto/memoryd/v1/graph.proto


export interface ForgetFactRequest {
  'factId'?: (string);
}

export interface ForgetFactRequest__Output {
  'factId': (string);
}
