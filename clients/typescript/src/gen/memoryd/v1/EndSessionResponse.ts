// Original file: ../../proto/memoryd/v1/conversation.proto


/**
 * EndSessionResponse identifies the job (JobService.GetJob, or WatchConversation).
 */
export interface EndSessionResponse {
  'jobId'?: (string);
}

/**
 * EndSessionResponse identifies the job (JobService.GetJob, or WatchConversation).
 */
export interface EndSessionResponse__Output {
  'jobId': (string);
}
