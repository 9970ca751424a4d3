// Original file: ../../proto/memoryd/v1/jobs.proto

import type { JobState as _memoryd_v1_JobState, JobState__Output as _memoryd_v1_JobState__Output } from '../../memoryd/v1/JobState';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';

/**
 * Job is one ledger record.
 */
export interface Job {
  /**
   * The deterministic key, e.g. `bootstrap:acme:support-bot:v1`.
   */
  'jobId'?: (string);
  /**
   * What it does: `bootstrap` (one agent, after an upgrade), `regenerate`
   * (RegenerateProfile), `bootstrap_all` (the batch), `compact` (a conversation),
   * `review` (review_memories of one agent), `review_all` (the audit batch),
   * `retention` (the daily purge), `graph_extract` (memory-graph facts from a compaction's summary).
   */
  'kind'?: (string);
  /**
   * The agent it works for; empty for batches.
   */
  'agentId'?: (string);
  'state'?: (_memoryd_v1_JobState);
  /**
   * Attempts that reached the work (deferrals before any provider call do not count).
   */
  'attempts'?: (number);
  /**
   * The latest failure, or why the job waits.
   */
  'lastError'?: (string);
  'progressDone'?: (number);
  'progressTotal'?: (number);
  'createdAt'?: (_google_protobuf_Timestamp | null);
  'updatedAt'?: (_google_protobuf_Timestamp | null);
  'startedAt'?: (_google_protobuf_Timestamp | null);
  'finishedAt'?: (_google_protobuf_Timestamp | null);
  /**
   * When the next attempt is due (retrying jobs).
   */
  'nextAttemptAt'?: (_google_protobuf_Timestamp | null);
  /**
   * A short summary of what the job did, as strings (e.g. outcome, revision, tokens_in).
   */
  'result'?: ({[key: string]: string});
  /**
   * The run number; RetryJob starts a new run.
   */
  'run'?: (number);
}

/**
 * Job is one ledger record.
 */
export interface Job__Output {
  /**
   * The deterministic key, e.g. `bootstrap:acme:support-bot:v1`.
   */
  'jobId': (string);
  /**
   * What it does: `bootstrap` (one agent, after an upgrade), `regenerate`
   * (RegenerateProfile), `bootstrap_all` (the batch), `compact` (a conversation),
   * `review` (review_memories of one agent), `review_all` (the audit batch),
   * `retention` (the daily purge), `graph_extract` (memory-graph facts from a compaction's summary).
   */
  'kind': (string);
  /**
   * The agent it works for; empty for batches.
   */
  'agentId': (string);
  'state': (_memoryd_v1_JobState__Output);
  /**
   * Attempts that reached the work (deferrals before any provider call do not count).
   */
  'attempts': (number);
  /**
   * The latest failure, or why the job waits.
   */
  'lastError': (string);
  'progressDone': (number);
  'progressTotal': (number);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
  'updatedAt': (_google_protobuf_Timestamp__Output | null);
  'startedAt': (_google_protobuf_Timestamp__Output | null);
  'finishedAt': (_google_protobuf_Timestamp__Output | null);
  /**
   * When the next attempt is due (retrying jobs).
   */
  'nextAttemptAt': (_google_protobuf_Timestamp__Output | null);
  /**
   * A short summary of what the job did, as strings (e.g. outcome, revision, tokens_in).
   */
  'result': ({[key: string]: string});
  /**
   * The run number; RetryJob starts a new run.
   */
  'run': (number);
}
