// Original file: ../../proto/memoryd/v1/jobs.proto

import type { Job as _memoryd_v1_Job, Job__Output as _memoryd_v1_Job__Output } from '../../memoryd/v1/Job';

/**
 * GetJobResponse carries the job.
 */
export interface GetJobResponse {
  'job'?: (_memoryd_v1_Job | null);
}

/**
 * GetJobResponse carries the job.
 */
export interface GetJobResponse__Output {
  'job': (_memoryd_v1_Job__Output | null);
}
