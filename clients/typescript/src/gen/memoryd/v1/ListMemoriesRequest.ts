// Original file: ../../proto/memoryd/v1/memory.proto

import type { RecallFilter as _memoryd_v1_RecallFilter, RecallFilter__Output as _memoryd_v1_RecallFilter__Output } from '../../memoryd/v1/RecallFilter';

/**
 * ListMemoriesRequest pages through visible memories, oldest first.
 */
export interface ListMemoriesRequest {
  /**
   * The acting agent. Required.
   */
  'agentId'?: (string);
  /**
   * The contact being served.
   */
  'endUserId'?: (string);
  /**
   * Optional filters (since applies to occurred_at).
   */
  'filter'?: (_memoryd_v1_RecallFilter | null);
  /**
   * 1 to 500; default 50.
   */
  'pageSize'?: (number);
  /**
   * From a previous response's next_page_token; must be used with the same
   * filter. Empty: the first page.
   */
  'pageToken'?: (string);
}

/**
 * ListMemoriesRequest pages through visible memories, oldest first.
 */
export interface ListMemoriesRequest__Output {
  /**
   * The acting agent. Required.
   */
  'agentId': (string);
  /**
   * The contact being served.
   */
  'endUserId': (string);
  /**
   * Optional filters (since applies to occurred_at).
   */
  'filter': (_memoryd_v1_RecallFilter__Output | null);
  /**
   * 1 to 500; default 50.
   */
  'pageSize': (number);
  /**
   * From a previous response's next_page_token; must be used with the same
   * filter. Empty: the first page.
   */
  'pageToken': (string);
}
