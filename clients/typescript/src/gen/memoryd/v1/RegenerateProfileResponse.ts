// Original file: ../../proto/memoryd/v1/profile.proto


/**
 * RegenerateProfileResponse identifies the background job.
 */
export interface RegenerateProfileResponse {
  /**
   * The job's deterministic key.
   */
  'jobId'?: (string);
}

/**
 * RegenerateProfileResponse identifies the background job.
 */
export interface RegenerateProfileResponse__Output {
  /**
   * The job's deterministic key.
   */
  'jobId': (string);
}
