// Original file: ../../proto/memoryd/v1/graph.proto


export interface RenameEntityRequest {
  'entityId'?: (string);
  /**
   * 1 to 200 chars.
   */
  'name'?: (string);
}

export interface RenameEntityRequest__Output {
  'entityId': (string);
  /**
   * 1 to 200 chars.
   */
  'name': (string);
}
