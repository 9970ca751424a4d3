// Original file: ../../proto/memoryd/v1/jobs.proto

import type { Job as _memoryd_v1_Job, Job__Output as _memoryd_v1_Job__Output } from '../../memoryd/v1/Job';

/**
 * ListJobsResponse is one page.
 */
export interface ListJobsResponse {
  'jobs'?: (_memoryd_v1_Job)[];
  /**
   * Empty when there are no more.
   */
  'nextPageToken'?: (string);
}

/**
 * ListJobsResponse is one page.
 */
export interface ListJobsResponse__Output {
  'jobs': (_memoryd_v1_Job__Output)[];
  /**
   * Empty when there are no more.
   */
  'nextPageToken': (string);
}
