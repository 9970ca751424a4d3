import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from './google/protobuf/Timestamp';
import type { GetJobRequest as _memoryd_v1_GetJobRequest, GetJobRequest__Output as _memoryd_v1_GetJobRequest__Output } from './memoryd/v1/GetJobRequest';
import type { GetJobResponse as _memoryd_v1_GetJobResponse, GetJobResponse__Output as _memoryd_v1_GetJobResponse__Output } from './memoryd/v1/GetJobResponse';
import type { Job as _memoryd_v1_Job, Job__Output as _memoryd_v1_Job__Output } from './memoryd/v1/Job';
import type { JobEvent as _memoryd_v1_JobEvent, JobEvent__Output as _memoryd_v1_JobEvent__Output } from './memoryd/v1/JobEvent';
import type { JobServiceClient as _memoryd_v1_JobServiceClient, JobServiceDefinition as _memoryd_v1_JobServiceDefinition } from './memoryd/v1/JobService';
import type { ListJobsRequest as _memoryd_v1_ListJobsRequest, ListJobsRequest__Output as _memoryd_v1_ListJobsRequest__Output } from './memoryd/v1/ListJobsRequest';
import type { ListJobsResponse as _memoryd_v1_ListJobsResponse, ListJobsResponse__Output as _memoryd_v1_ListJobsResponse__Output } from './memoryd/v1/ListJobsResponse';
import type { RetryJobRequest as _memoryd_v1_RetryJobRequest, RetryJobRequest__Output as _memoryd_v1_RetryJobRequest__Output } from './memoryd/v1/RetryJobRequest';
import type { RetryJobResponse as _memoryd_v1_RetryJobResponse, RetryJobResponse__Output as _memoryd_v1_RetryJobResponse__Output } from './memoryd/v1/RetryJobResponse';
import type { WatchJobRequest as _memoryd_v1_WatchJobRequest, WatchJobRequest__Output as _memoryd_v1_WatchJobRequest__Output } from './memoryd/v1/WatchJobRequest';
import type { WatchJobResponse as _memoryd_v1_WatchJobResponse, WatchJobResponse__Output as _memoryd_v1_WatchJobResponse__Output } from './memoryd/v1/WatchJobResponse';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  google: {
    protobuf: {
      Timestamp: MessageTypeDefinition<_google_protobuf_Timestamp, _google_protobuf_Timestamp__Output>
    }
  }
  memoryd: {
    v1: {
      GetJobRequest: MessageTypeDefinition<_memoryd_v1_GetJobRequest, _memoryd_v1_GetJobRequest__Output>
      GetJobResponse: MessageTypeDefinition<_memoryd_v1_GetJobResponse, _memoryd_v1_GetJobResponse__Output>
      Job: MessageTypeDefinition<_memoryd_v1_Job, _memoryd_v1_Job__Output>
      JobEvent: MessageTypeDefinition<_memoryd_v1_JobEvent, _memoryd_v1_JobEvent__Output>
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
      JobService: SubtypeConstructor<typeof grpc.Client, _memoryd_v1_JobServiceClient> & { service: _memoryd_v1_JobServiceDefinition }
      JobState: EnumTypeDefinition
      ListJobsRequest: MessageTypeDefinition<_memoryd_v1_ListJobsRequest, _memoryd_v1_ListJobsRequest__Output>
      ListJobsResponse: MessageTypeDefinition<_memoryd_v1_ListJobsResponse, _memoryd_v1_ListJobsResponse__Output>
      RetryJobRequest: MessageTypeDefinition<_memoryd_v1_RetryJobRequest, _memoryd_v1_RetryJobRequest__Output>
      RetryJobResponse: MessageTypeDefinition<_memoryd_v1_RetryJobResponse, _memoryd_v1_RetryJobResponse__Output>
      WatchJobRequest: MessageTypeDefinition<_memoryd_v1_WatchJobRequest, _memoryd_v1_WatchJobRequest__Output>
      WatchJobResponse: MessageTypeDefinition<_memoryd_v1_WatchJobResponse, _memoryd_v1_WatchJobResponse__Output>
    }
  }
}

