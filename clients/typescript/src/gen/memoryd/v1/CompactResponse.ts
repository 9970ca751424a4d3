// Original file: ../../proto/memoryd/v1/conversation.proto


/**
 * CompactResponse identifies the job.
 */
export interface CompactResponse {
  'jobId'?: (string);
}

/**
 * CompactResponse identifies the job.
 */
export interface CompactResponse__Output {
  'jobId': (string);
}
