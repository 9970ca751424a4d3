// Original file: ../../proto/memoryd/v1/jobs.proto

import type { JobState as _memoryd_v1_JobState, JobState__Output as _memoryd_v1_JobState__Output } from '../../memoryd/v1/JobState';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';

/**
 * JobEvent is one step of a job.
 */
export interface JobEvent {
  'jobId'?: (string);
  'state'?: (_memoryd_v1_JobState);
  /**
   * What happened, e.g. "attempt 2 failed (Unavailable: ...); retrying in 3.1 s".
   */
  'message'?: (string);
  'attempts'?: (number);
  'progressDone'?: (number);
  'progressTotal'?: (number);
  'at'?: (_google_protobuf_Timestamp | null);
}

/**
 * JobEvent is one step of a job.
 */
export interface JobEvent__Output {
  'jobId': (string);
  'state': (_memoryd_v1_JobState__Output);
  /**
   * What happened, e.g. "attempt 2 failed (Unavailable: ...); retrying in 3.1 s".
   */
  'message': (string);
  'attempts': (number);
  'progressDone': (number);
  'progressTotal': (number);
  'at': (_google_protobuf_Timestamp__Output | null);
}
