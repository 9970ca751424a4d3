// Original file: ../../proto/memoryd/v1/jobs.proto


/**
 * RetryJobRequest names a failed or dead job.
 */
export interface RetryJobRequest {
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
 * RetryJobRequest names a failed or dead job.
 */
export interface RetryJobRequest__Output {
  /**
   * Required.
   */
  'jobId': (string);
  /**
   * Operator path: the operator partition's batch jobs (see the service comment).
   */
  'operatorBatches': (boolean);
}
