// Original file: ../../proto/memoryd/v1/jobs.proto

import type { JobState as _memoryd_v1_JobState, JobState__Output as _memoryd_v1_JobState__Output } from '../../memoryd/v1/JobState';

/**
 * ListJobsRequest filters the tenant's jobs.
 */
export interface ListJobsRequest {
  /**
   * Only this kind (empty: all).
   */
  'kind'?: (string);
  /**
   * Only this state (unspecified: all).
   */
  'state'?: (_memoryd_v1_JobState);
  /**
   * Only this agent's jobs (empty: all).
   */
  'agentId'?: (string);
  /**
   * 1-500; 0 means 50.
   */
  'pageSize'?: (number);
  /**
   * From a previous response's next_page_token.
   */
  'pageToken'?: (string);
  /**
   * Operator path: the operator partition's batch jobs (see the service comment).
   */
  'operatorBatches'?: (boolean);
}

/**
 * ListJobsRequest filters the tenant's jobs.
 */
export interface ListJobsRequest__Output {
  /**
   * Only this kind (empty: all).
   */
  'kind': (string);
  /**
   * Only this state (unspecified: all).
   */
  'state': (_memoryd_v1_JobState__Output);
  /**
   * Only this agent's jobs (empty: all).
   */
  'agentId': (string);
  /**
   * 1-500; 0 means 50.
   */
  'pageSize': (number);
  /**
   * From a previous response's next_page_token.
   */
  'pageToken': (string);
  /**
   * Operator path: the operator partition's batch jobs (see the service comment).
   */
  'operatorBatches': (boolean);
}
