// Original file: ../../proto/memoryd/v1/profile.proto


/**
 * ListProfileRevisionsRequest pages through revisions.
 */
export interface ListProfileRevisionsRequest {
  /**
   * The agent. Required.
   */
  'agentId'?: (string);
  /**
   * 1 to 200; default 20.
   */
  'pageSize'?: (number);
  /**
   * From a previous response; empty for the newest revisions.
   */
  'pageToken'?: (string);
}

/**
 * ListProfileRevisionsRequest pages through revisions.
 */
export interface ListProfileRevisionsRequest__Output {
  /**
   * The agent. Required.
   */
  'agentId': (string);
  /**
   * 1 to 200; default 20.
   */
  'pageSize': (number);
  /**
   * From a previous response; empty for the newest revisions.
   */
  'pageToken': (string);
}
