// Original file: ../../proto/memoryd/v1/jobs.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { GetJobRequest as _memoryd_v1_GetJobRequest, GetJobRequest__Output as _memoryd_v1_GetJobRequest__Output } from '../../memoryd/v1/GetJobRequest';
import type { GetJobResponse as _memoryd_v1_GetJobResponse, GetJobResponse__Output as _memoryd_v1_GetJobResponse__Output } from '../../memoryd/v1/GetJobResponse';
import type { ListJobsRequest as _memoryd_v1_ListJobsRequest, ListJobsRequest__Output as _memoryd_v1_ListJobsRequest__Output } from '../../memoryd/v1/ListJobsRequest';
import type { ListJobsResponse as _memoryd_v1_ListJobsResponse, ListJobsResponse__Output as _memoryd_v1_ListJobsResponse__Output } from '../../memoryd/v1/ListJobsResponse';
import type { RetryJobRequest as _memoryd_v1_RetryJobRequest, RetryJobRequest__Output as _memoryd_v1_RetryJobRequest__Output } from '../../memoryd/v1/RetryJobRequest';
import type { RetryJobResponse as _memoryd_v1_RetryJobResponse, RetryJobResponse__Output as _memoryd_v1_RetryJobResponse__Output } from '../../memoryd/v1/RetryJobResponse';
import type { WatchJobRequest as _memoryd_v1_WatchJobRequest, WatchJobRequest__Output as _memoryd_v1_WatchJobRequest__Output } from '../../memoryd/v1/WatchJobRequest';
import type { WatchJobResponse as _memoryd_v1_WatchJobResponse, WatchJobResponse__Output as _memoryd_v1_WatchJobResponse__Output } from '../../memoryd/v1/WatchJobResponse';

/**
 * JobService reads the ledger of background jobs (profile bootstrap,
 * regeneration, compaction, reviews, batches) and re-drives failed ones. Every
 * call is scoped to the tenant in the `x-tenant-id` metadata: another tenant's
 * job is NOT_FOUND. Without a job queue (no Redis/Valkey configured) every call
 * is UNAVAILABLE.
 * 
 * Operator path: batch jobs over many tenants (`bootstrap_all`, `review_all`)
 * live in an operator partition no tenant can name. A request with
 * `operator_batches` set reads that partition instead of the tenant's; it needs
 * the `x-operator-key` metadata to equal the server's `server.operator_key`
 * (PERMISSION_DENIED when it differs or the server has no key) and ignores
 * `x-tenant-id`.
 */
export interface JobServiceClient extends grpc.Client {
  /**
   * GetJob returns one job by its key (the job_id returned when it was queued).
   */
  GetJob(argument: _memoryd_v1_GetJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetJobResponse__Output>): grpc.ClientUnaryCall;
  GetJob(argument: _memoryd_v1_GetJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_GetJobResponse__Output>): grpc.ClientUnaryCall;
  GetJob(argument: _memoryd_v1_GetJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetJobResponse__Output>): grpc.ClientUnaryCall;
  GetJob(argument: _memoryd_v1_GetJobRequest, callback: grpc.requestCallback<_memoryd_v1_GetJobResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GetJob returns one job by its key (the job_id returned when it was queued).
   */
  getJob(argument: _memoryd_v1_GetJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetJobResponse__Output>): grpc.ClientUnaryCall;
  getJob(argument: _memoryd_v1_GetJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_GetJobResponse__Output>): grpc.ClientUnaryCall;
  getJob(argument: _memoryd_v1_GetJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetJobResponse__Output>): grpc.ClientUnaryCall;
  getJob(argument: _memoryd_v1_GetJobRequest, callback: grpc.requestCallback<_memoryd_v1_GetJobResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * ListJobs lists the tenant's jobs, newest first, filtered by kind, state and agent.
   */
  ListJobs(argument: _memoryd_v1_ListJobsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  ListJobs(argument: _memoryd_v1_ListJobsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  ListJobs(argument: _memoryd_v1_ListJobsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  ListJobs(argument: _memoryd_v1_ListJobsRequest, callback: grpc.requestCallback<_memoryd_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * ListJobs lists the tenant's jobs, newest first, filtered by kind, state and agent.
   */
  listJobs(argument: _memoryd_v1_ListJobsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  listJobs(argument: _memoryd_v1_ListJobsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  listJobs(argument: _memoryd_v1_ListJobsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  listJobs(argument: _memoryd_v1_ListJobsRequest, callback: grpc.requestCallback<_memoryd_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * RetryJob re-drives a failed or dead job from attempt 1 (a new run).
   * FAILED_PRECONDITION for a job in any other state.
   */
  RetryJob(argument: _memoryd_v1_RetryJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RetryJobResponse__Output>): grpc.ClientUnaryCall;
  RetryJob(argument: _memoryd_v1_RetryJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_RetryJobResponse__Output>): grpc.ClientUnaryCall;
  RetryJob(argument: _memoryd_v1_RetryJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RetryJobResponse__Output>): grpc.ClientUnaryCall;
  RetryJob(argument: _memoryd_v1_RetryJobRequest, callback: grpc.requestCallback<_memoryd_v1_RetryJobResponse__Output>): grpc.ClientUnaryCall;
  /**
   * RetryJob re-drives a failed or dead job from attempt 1 (a new run).
   * FAILED_PRECONDITION for a job in any other state.
   */
  retryJob(argument: _memoryd_v1_RetryJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RetryJobResponse__Output>): grpc.ClientUnaryCall;
  retryJob(argument: _memoryd_v1_RetryJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_RetryJobResponse__Output>): grpc.ClientUnaryCall;
  retryJob(argument: _memoryd_v1_RetryJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RetryJobResponse__Output>): grpc.ClientUnaryCall;
  retryJob(argument: _memoryd_v1_RetryJobRequest, callback: grpc.requestCallback<_memoryd_v1_RetryJobResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * WatchJob streams the job's events from its first one, then live ones, and
   * ends when the job is no longer queued, running, waiting or retrying. It counts
   * toward the key's `auth.streams_per_key` open Watch streams (RESOURCE_EXHAUSTED
   * beyond); the initial metadata arrives once it is admitted.
   */
  WatchJob(argument: _memoryd_v1_WatchJobRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_memoryd_v1_WatchJobResponse__Output>;
  WatchJob(argument: _memoryd_v1_WatchJobRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_memoryd_v1_WatchJobResponse__Output>;
  /**
   * WatchJob streams the job's events from its first one, then live ones, and
   * ends when the job is no longer queued, running, waiting or retrying. It counts
   * toward the key's `auth.streams_per_key` open Watch streams (RESOURCE_EXHAUSTED
   * beyond); the initial metadata arrives once it is admitted.
   */
  watchJob(argument: _memoryd_v1_WatchJobRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_memoryd_v1_WatchJobResponse__Output>;
  watchJob(argument: _memoryd_v1_WatchJobRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_memoryd_v1_WatchJobResponse__Output>;
  
}

/**
 * JobService reads the ledger of background jobs (profile bootstrap,
 * regeneration, compaction, reviews, batches) and re-drives failed ones. Every
 * call is scoped to the tenant in the `x-tenant-id` metadata: another tenant's
 * job is NOT_FOUND. Without a job queue (no Redis/Valkey configured) every call
 * is UNAVAILABLE.
 * 
 * Operator path: batch jobs over many tenants (`bootstrap_all`, `review_all`)
 * live in an operator partition no tenant can name. A request with
 * `operator_batches` set reads that partition instead of the tenant's; it needs
 * the `x-operator-key` metadata to equal the server's `server.operator_key`
 * (PERMISSION_DENIED when it differs or the server has no key) and ignores
 * `x-tenant-id`.
 */
export interface JobServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * GetJob returns one job by its key (the job_id returned when it was queued).
   */
  GetJob: grpc.handleUnaryCall<_memoryd_v1_GetJobRequest__Output, _memoryd_v1_GetJobResponse>;
  
  /**
   * ListJobs lists the tenant's jobs, newest first, filtered by kind, state and agent.
   */
  ListJobs: grpc.handleUnaryCall<_memoryd_v1_ListJobsRequest__Output, _memoryd_v1_ListJobsResponse>;
  
  /**
   * RetryJob re-drives a failed or dead job from attempt 1 (a new run).
   * FAILED_PRECONDITION for a job in any other state.
   */
  RetryJob: grpc.handleUnaryCall<_memoryd_v1_RetryJobRequest__Output, _memoryd_v1_RetryJobResponse>;
  
  /**
   * WatchJob streams the job's events from its first one, then live ones, and
   * ends when the job is no longer queued, running, waiting or retrying. It counts
   * toward the key's `auth.streams_per_key` open Watch streams (RESOURCE_EXHAUSTED
   * beyond); the initial metadata arrives once it is admitted.
   */
  WatchJob: grpc.handleServerStreamingCall<_memoryd_v1_WatchJobRequest__Output, _memoryd_v1_WatchJobResponse>;
  
}

export interface JobServiceDefinition extends grpc.ServiceDefinition {
  GetJob: MethodDefinition<_memoryd_v1_GetJobRequest, _memoryd_v1_GetJobResponse, _memoryd_v1_GetJobRequest__Output, _memoryd_v1_GetJobResponse__Output>
  ListJobs: MethodDefinition<_memoryd_v1_ListJobsRequest, _memoryd_v1_ListJobsResponse, _memoryd_v1_ListJobsRequest__Output, _memoryd_v1_ListJobsResponse__Output>
  RetryJob: MethodDefinition<_memoryd_v1_RetryJobRequest, _memoryd_v1_RetryJobResponse, _memoryd_v1_RetryJobRequest__Output, _memoryd_v1_RetryJobResponse__Output>
  WatchJob: MethodDefinition<_memoryd_v1_WatchJobRequest, _memoryd_v1_WatchJobResponse, _memoryd_v1_WatchJobRequest__Output, _memoryd_v1_WatchJobResponse__Output>
}
