// Original file: ../../proto/memoryd/v1/jobs.proto

import type { JobEvent as _memoryd_v1_JobEvent, JobEvent__Output as _memoryd_v1_JobEvent__Output } from '../../memoryd/v1/JobEvent';

/**
 * WatchJobResponse carries one event.
 */
export interface WatchJobResponse {
  'event'?: (_memoryd_v1_JobEvent | null);
}

/**
 * WatchJobResponse carries one event.
 */
export interface WatchJobResponse__Output {
  'event': (_memoryd_v1_JobEvent__Output | null);
}
