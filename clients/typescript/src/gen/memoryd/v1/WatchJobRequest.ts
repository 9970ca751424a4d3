// Original file: ../../proto/memoryd/v1/jobs.proto


/**
 * WatchJobRequest names a job.
 */
export interface WatchJobRequest {
  /**
   * Required.
   */
  'jobId'?: (string);
  /**
   * Operator path: the operator partition's batch jobs (see the service comment).
   */
  'operatorBatches'?: (boolean);
}

/**
 * WatchJobRequest names a job.
 */
export interface WatchJobRequest__Output {
  /**
   * Required.
   */
  'jobId': (string);
  /**
   * Operator path: the operator partition's batch jobs (see the service comment).
   */
  'operatorBatches': (boolean);
}
