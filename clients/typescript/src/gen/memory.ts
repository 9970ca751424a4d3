import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from './google/protobuf/Timestamp';
import type { AutoFeedbackRequest as _memoryd_v1_AutoFeedbackRequest, AutoFeedbackRequest__Output as _memoryd_v1_AutoFeedbackRequest__Output } from './memoryd/v1/AutoFeedbackRequest';
import type { AutoFeedbackResponse as _memoryd_v1_AutoFeedbackResponse, AutoFeedbackResponse__Output as _memoryd_v1_AutoFeedbackResponse__Output } from './memoryd/v1/AutoFeedbackResponse';
import type { ExplainedMemory as _memoryd_v1_ExplainedMemory, ExplainedMemory__Output as _memoryd_v1_ExplainedMemory__Output } from './memoryd/v1/ExplainedMemory';
import type { FeedbackRequest as _memoryd_v1_FeedbackRequest, FeedbackRequest__Output as _memoryd_v1_FeedbackRequest__Output } from './memoryd/v1/FeedbackRequest';
import type { FeedbackResponse as _memoryd_v1_FeedbackResponse, FeedbackResponse__Output as _memoryd_v1_FeedbackResponse__Output } from './memoryd/v1/FeedbackResponse';
import type { FeedbackSummary as _memoryd_v1_FeedbackSummary, FeedbackSummary__Output as _memoryd_v1_FeedbackSummary__Output } from './memoryd/v1/FeedbackSummary';
import type { ForgetRequest as _memoryd_v1_ForgetRequest, ForgetRequest__Output as _memoryd_v1_ForgetRequest__Output } from './memoryd/v1/ForgetRequest';
import type { ForgetResponse as _memoryd_v1_ForgetResponse, ForgetResponse__Output as _memoryd_v1_ForgetResponse__Output } from './memoryd/v1/ForgetResponse';
import type { GetMemoryHistoryRequest as _memoryd_v1_GetMemoryHistoryRequest, GetMemoryHistoryRequest__Output as _memoryd_v1_GetMemoryHistoryRequest__Output } from './memoryd/v1/GetMemoryHistoryRequest';
import type { GetMemoryHistoryResponse as _memoryd_v1_GetMemoryHistoryResponse, GetMemoryHistoryResponse__Output as _memoryd_v1_GetMemoryHistoryResponse__Output } from './memoryd/v1/GetMemoryHistoryResponse';
import type { GetMemoryRequest as _memoryd_v1_GetMemoryRequest, GetMemoryRequest__Output as _memoryd_v1_GetMemoryRequest__Output } from './memoryd/v1/GetMemoryRequest';
import type { GetMemoryResponse as _memoryd_v1_GetMemoryResponse, GetMemoryResponse__Output as _memoryd_v1_GetMemoryResponse__Output } from './memoryd/v1/GetMemoryResponse';
import type { ListMemoriesRequest as _memoryd_v1_ListMemoriesRequest, ListMemoriesRequest__Output as _memoryd_v1_ListMemoriesRequest__Output } from './memoryd/v1/ListMemoriesRequest';
import type { ListMemoriesResponse as _memoryd_v1_ListMemoriesResponse, ListMemoriesResponse__Output as _memoryd_v1_ListMemoriesResponse__Output } from './memoryd/v1/ListMemoriesResponse';
import type { MemorizeBatchRequest as _memoryd_v1_MemorizeBatchRequest, MemorizeBatchRequest__Output as _memoryd_v1_MemorizeBatchRequest__Output } from './memoryd/v1/MemorizeBatchRequest';
import type { MemorizeBatchResponse as _memoryd_v1_MemorizeBatchResponse, MemorizeBatchResponse__Output as _memoryd_v1_MemorizeBatchResponse__Output } from './memoryd/v1/MemorizeBatchResponse';
import type { MemorizeRequest as _memoryd_v1_MemorizeRequest, MemorizeRequest__Output as _memoryd_v1_MemorizeRequest__Output } from './memoryd/v1/MemorizeRequest';
import type { MemorizeResponse as _memoryd_v1_MemorizeResponse, MemorizeResponse__Output as _memoryd_v1_MemorizeResponse__Output } from './memoryd/v1/MemorizeResponse';
import type { Memory as _memoryd_v1_Memory, Memory__Output as _memoryd_v1_Memory__Output } from './memoryd/v1/Memory';
import type { MemoryHistoryEvent as _memoryd_v1_MemoryHistoryEvent, MemoryHistoryEvent__Output as _memoryd_v1_MemoryHistoryEvent__Output } from './memoryd/v1/MemoryHistoryEvent';
import type { MemoryInput as _memoryd_v1_MemoryInput, MemoryInput__Output as _memoryd_v1_MemoryInput__Output } from './memoryd/v1/MemoryInput';
import type { MemoryServiceClient as _memoryd_v1_MemoryServiceClient, MemoryServiceDefinition as _memoryd_v1_MemoryServiceDefinition } from './memoryd/v1/MemoryService';
import type { RecallFilter as _memoryd_v1_RecallFilter, RecallFilter__Output as _memoryd_v1_RecallFilter__Output } from './memoryd/v1/RecallFilter';
import type { RecallHit as _memoryd_v1_RecallHit, RecallHit__Output as _memoryd_v1_RecallHit__Output } from './memoryd/v1/RecallHit';
import type { RecallRequest as _memoryd_v1_RecallRequest, RecallRequest__Output as _memoryd_v1_RecallRequest__Output } from './memoryd/v1/RecallRequest';
import type { RecallResponse as _memoryd_v1_RecallResponse, RecallResponse__Output as _memoryd_v1_RecallResponse__Output } from './memoryd/v1/RecallResponse';
import type { RecallTrace as _memoryd_v1_RecallTrace, RecallTrace__Output as _memoryd_v1_RecallTrace__Output } from './memoryd/v1/RecallTrace';
import type { RestoreMemoryRequest as _memoryd_v1_RestoreMemoryRequest, RestoreMemoryRequest__Output as _memoryd_v1_RestoreMemoryRequest__Output } from './memoryd/v1/RestoreMemoryRequest';
import type { RestoreMemoryResponse as _memoryd_v1_RestoreMemoryResponse, RestoreMemoryResponse__Output as _memoryd_v1_RestoreMemoryResponse__Output } from './memoryd/v1/RestoreMemoryResponse';
import type { ScoreParts as _memoryd_v1_ScoreParts, ScoreParts__Output as _memoryd_v1_ScoreParts__Output } from './memoryd/v1/ScoreParts';
import type { TagList as _memoryd_v1_TagList, TagList__Output as _memoryd_v1_TagList__Output } from './memoryd/v1/TagList';
import type { TraceCandidate as _memoryd_v1_TraceCandidate, TraceCandidate__Output as _memoryd_v1_TraceCandidate__Output } from './memoryd/v1/TraceCandidate';
import type { UpdateMemoryRequest as _memoryd_v1_UpdateMemoryRequest, UpdateMemoryRequest__Output as _memoryd_v1_UpdateMemoryRequest__Output } from './memoryd/v1/UpdateMemoryRequest';
import type { UpdateMemoryResponse as _memoryd_v1_UpdateMemoryResponse, UpdateMemoryResponse__Output as _memoryd_v1_UpdateMemoryResponse__Output } from './memoryd/v1/UpdateMemoryResponse';
import type { UsedResult as _memoryd_v1_UsedResult, UsedResult__Output as _memoryd_v1_UsedResult__Output } from './memoryd/v1/UsedResult';

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
      AutoFeedbackRequest: MessageTypeDefinition<_memoryd_v1_AutoFeedbackRequest, _memoryd_v1_AutoFeedbackRequest__Output>
      AutoFeedbackResponse: MessageTypeDefinition<_memoryd_v1_AutoFeedbackResponse, _memoryd_v1_AutoFeedbackResponse__Output>
      ExplainedMemory: MessageTypeDefinition<_memoryd_v1_ExplainedMemory, _memoryd_v1_ExplainedMemory__Output>
      FeedbackRequest: MessageTypeDefinition<_memoryd_v1_FeedbackRequest, _memoryd_v1_FeedbackRequest__Output>
      FeedbackResponse: MessageTypeDefinition<_memoryd_v1_FeedbackResponse, _memoryd_v1_FeedbackResponse__Output>
      FeedbackSignal: EnumTypeDefinition
      FeedbackSummary: MessageTypeDefinition<_memoryd_v1_FeedbackSummary, _memoryd_v1_FeedbackSummary__Output>
      ForgetRequest: MessageTypeDefinition<_memoryd_v1_ForgetRequest, _memoryd_v1_ForgetRequest__Output>
      ForgetResponse: MessageTypeDefinition<_memoryd_v1_ForgetResponse, _memoryd_v1_ForgetResponse__Output>
      GetMemoryHistoryRequest: MessageTypeDefinition<_memoryd_v1_GetMemoryHistoryRequest, _memoryd_v1_GetMemoryHistoryRequest__Output>
      GetMemoryHistoryResponse: MessageTypeDefinition<_memoryd_v1_GetMemoryHistoryResponse, _memoryd_v1_GetMemoryHistoryResponse__Output>
      GetMemoryRequest: MessageTypeDefinition<_memoryd_v1_GetMemoryRequest, _memoryd_v1_GetMemoryRequest__Output>
      GetMemoryResponse: MessageTypeDefinition<_memoryd_v1_GetMemoryResponse, _memoryd_v1_GetMemoryResponse__Output>
      ListMemoriesRequest: MessageTypeDefinition<_memoryd_v1_ListMemoriesRequest, _memoryd_v1_ListMemoriesRequest__Output>
      ListMemoriesResponse: MessageTypeDefinition<_memoryd_v1_ListMemoriesResponse, _memoryd_v1_ListMemoriesResponse__Output>
      MemorizeBatchRequest: MessageTypeDefinition<_memoryd_v1_MemorizeBatchRequest, _memoryd_v1_MemorizeBatchRequest__Output>
      MemorizeBatchResponse: MessageTypeDefinition<_memoryd_v1_MemorizeBatchResponse, _memoryd_v1_MemorizeBatchResponse__Output>
      MemorizeRequest: MessageTypeDefinition<_memoryd_v1_MemorizeRequest, _memoryd_v1_MemorizeRequest__Output>
      MemorizeResponse: MessageTypeDefinition<_memoryd_v1_MemorizeResponse, _memoryd_v1_MemorizeResponse__Output>
      Memory: MessageTypeDefinition<_memoryd_v1_Memory, _memoryd_v1_Memory__Output>
      MemoryHistoryEvent: MessageTypeDefinition<_memoryd_v1_MemoryHistoryEvent, _memoryd_v1_MemoryHistoryEvent__Output>
      MemoryInput: MessageTypeDefinition<_memoryd_v1_MemoryInput, _memoryd_v1_MemoryInput__Output>
      /**
       * MemoryService stores and searches an agent's archive.
       */
      MemoryService: SubtypeConstructor<typeof grpc.Client, _memoryd_v1_MemoryServiceClient> & { service: _memoryd_v1_MemoryServiceDefinition }
      MemoryStatus: EnumTypeDefinition
      MemoryType: EnumTypeDefinition
      RankingMode: EnumTypeDefinition
      RecallArms: EnumTypeDefinition
      RecallFilter: MessageTypeDefinition<_memoryd_v1_RecallFilter, _memoryd_v1_RecallFilter__Output>
      RecallHit: MessageTypeDefinition<_memoryd_v1_RecallHit, _memoryd_v1_RecallHit__Output>
      RecallRequest: MessageTypeDefinition<_memoryd_v1_RecallRequest, _memoryd_v1_RecallRequest__Output>
      RecallResponse: MessageTypeDefinition<_memoryd_v1_RecallResponse, _memoryd_v1_RecallResponse__Output>
      RecallTrace: MessageTypeDefinition<_memoryd_v1_RecallTrace, _memoryd_v1_RecallTrace__Output>
      RestoreMemoryRequest: MessageTypeDefinition<_memoryd_v1_RestoreMemoryRequest, _memoryd_v1_RestoreMemoryRequest__Output>
      RestoreMemoryResponse: MessageTypeDefinition<_memoryd_v1_RestoreMemoryResponse, _memoryd_v1_RestoreMemoryResponse__Output>
      Scope: EnumTypeDefinition
      ScoreParts: MessageTypeDefinition<_memoryd_v1_ScoreParts, _memoryd_v1_ScoreParts__Output>
      TagList: MessageTypeDefinition<_memoryd_v1_TagList, _memoryd_v1_TagList__Output>
      TagMode: EnumTypeDefinition
      TraceCandidate: MessageTypeDefinition<_memoryd_v1_TraceCandidate, _memoryd_v1_TraceCandidate__Output>
      UpdateMemoryRequest: MessageTypeDefinition<_memoryd_v1_UpdateMemoryRequest, _memoryd_v1_UpdateMemoryRequest__Output>
      UpdateMemoryResponse: MessageTypeDefinition<_memoryd_v1_UpdateMemoryResponse, _memoryd_v1_UpdateMemoryResponse__Output>
      UsedResult: MessageTypeDefinition<_memoryd_v1_UsedResult, _memoryd_v1_UsedResult__Output>
    }
  }
}

