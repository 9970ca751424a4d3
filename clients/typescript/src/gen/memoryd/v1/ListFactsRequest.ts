// Original file: ../../proto/memoryd/v1/graph.proto

import type { FactStatus as _memoryd_v1_FactStatus, FactStatus__Output as _memoryd_v1_FactStatus__Output } from '../../memoryd/v1/FactStatus';

export interface ListFactsRequest {
  'agentId'?: (string);
  'endUserId'?: (string);
  /**
   * Unspecified: every status.
   */
  'status'?: (_memoryd_v1_FactStatus);
  /**
   * Only facts whose subject or object is this entity; empty: any.
   */
  'entityId'?: (string);
  /**
   * 1-200; 0 means 50.
   */
  'pageSize'?: (number);
  'pageToken'?: (string);
}

export interface ListFactsRequest__Output {
  'agentId': (string);
  'endUserId': (string);
  /**
   * Unspecified: every status.
   */
  'status': (_memoryd_v1_FactStatus__Output);
  /**
   * Only facts whose subject or object is this entity; empty: any.
   */
  'entityId': (string);
  /**
   * 1-200; 0 means 50.
   */
  'pageSize': (number);
  'pageToken': (string);
}
