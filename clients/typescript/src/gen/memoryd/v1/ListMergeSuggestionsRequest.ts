// Original file: ../../proto/memoryd/v1/graph.proto


export interface ListMergeSuggestionsRequest {
  'agentId'?: (string);
  'endUserId'?: (string);
  /**
   * 1-200; 0 means 50.
   */
  'pageSize'?: (number);
  'pageToken'?: (string);
}

export interface ListMergeSuggestionsRequest__Output {
  'agentId': (string);
  'endUserId': (string);
  /**
   * 1-200; 0 means 50.
   */
  'pageSize': (number);
  'pageToken': (string);
}
