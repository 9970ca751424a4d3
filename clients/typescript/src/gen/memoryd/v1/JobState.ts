// Original file: ../../proto/memoryd/v1/jobs.proto

/**
 * JobState is where a job is in its life.
 */
export const JobState = {
  JOB_STATE_UNSPECIFIED: 'JOB_STATE_UNSPECIFIED',
  /**
   * Waiting for a worker.
   */
  JOB_STATE_QUEUED: 'JOB_STATE_QUEUED',
  /**
   * A worker is running it.
   */
  JOB_STATE_RUNNING: 'JOB_STATE_RUNNING',
  /**
   * Needs a model and none is configured; proceeds when a worker with one starts.
   */
  JOB_STATE_WAITING_FOR_PROVIDER: 'JOB_STATE_WAITING_FOR_PROVIDER',
  /**
   * A retryable failure (provider down, throttled, circuit open); another attempt is scheduled.
   */
  JOB_STATE_RETRYING: 'JOB_STATE_RETRYING',
  /**
   * Done; `result` says what it did.
   */
  JOB_STATE_SUCCEEDED: 'JOB_STATE_SUCCEEDED',
  /**
   * A permanent failure (invalid model output, bad request); see `last_error`. Re-drivable.
   */
  JOB_STATE_FAILED: 'JOB_STATE_FAILED',
  /**
   * Retryable failures used up every try; see `last_error`. Re-drivable.
   */
  JOB_STATE_DEAD: 'JOB_STATE_DEAD',
} as const;

/**
 * JobState is where a job is in its life.
 */
export type JobState =
  | 'JOB_STATE_UNSPECIFIED'
  | 0
  /**
   * Waiting for a worker.
   */
  | 'JOB_STATE_QUEUED'
  | 1
  /**
   * A worker is running it.
   */
  | 'JOB_STATE_RUNNING'
  | 2
  /**
   * Needs a model and none is configured; proceeds when a worker with one starts.
   */
  | 'JOB_STATE_WAITING_FOR_PROVIDER'
  | 3
  /**
   * A retryable failure (provider down, throttled, circuit open); another attempt is scheduled.
   */
  | 'JOB_STATE_RETRYING'
  | 4
  /**
   * Done; `result` says what it did.
   */
  | 'JOB_STATE_SUCCEEDED'
  | 5
  /**
   * A permanent failure (invalid model output, bad request); see `last_error`. Re-drivable.
   */
  | 'JOB_STATE_FAILED'
  | 6
  /**
   * Retryable failures used up every try; see `last_error`. Re-drivable.
   */
  | 'JOB_STATE_DEAD'
  | 7

/**
 * JobState is where a job is in its life.
 */
export type JobState__Output = typeof JobState[keyof typeof JobState]
