// Original file: ../../proto/memoryd/v1/jobs.proto


/**
 * GetJobRequest names a job.
 */
export interface GetJobRequest {
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
 * GetJobRequest names a job.
 */
export interface GetJobRequest__Output {
  /**
   * Required.
   */
  'jobId': (string);
  /**
   * Operator path: the operator partition's batch jobs (see the service comment).
   */
  'operatorBatches': (boolean);
}
