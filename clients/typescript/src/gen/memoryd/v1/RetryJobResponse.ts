// Original file: ../../proto/memoryd/v1/jobs.proto

import type { Job as _memoryd_v1_Job, Job__Output as _memoryd_v1_Job__Output } from '../../memoryd/v1/Job';

/**
 * RetryJobResponse carries the re-driven job (state queued, a new run).
 */
export interface RetryJobResponse {
  'job'?: (_memoryd_v1_Job | null);
}

/**
 * RetryJobResponse carries the re-driven job (state queued, a new run).
 */
export interface RetryJobResponse__Output {
  'job': (_memoryd_v1_Job__Output | null);
}
