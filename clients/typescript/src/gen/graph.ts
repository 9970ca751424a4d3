import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from './google/protobuf/Timestamp';
import type { AssertFactRequest as _memoryd_v1_AssertFactRequest, AssertFactRequest__Output as _memoryd_v1_AssertFactRequest__Output } from './memoryd/v1/AssertFactRequest';
import type { AssertFactResponse as _memoryd_v1_AssertFactResponse, AssertFactResponse__Output as _memoryd_v1_AssertFactResponse__Output } from './memoryd/v1/AssertFactResponse';
import type { AutoFeedbackRequest as _memoryd_v1_AutoFeedbackRequest, AutoFeedbackRequest__Output as _memoryd_v1_AutoFeedbackRequest__Output } from './memoryd/v1/AutoFeedbackRequest';
import type { AutoFeedbackResponse as _memoryd_v1_AutoFeedbackResponse, AutoFeedbackResponse__Output as _memoryd_v1_AutoFeedbackResponse__Output } from './memoryd/v1/AutoFeedbackResponse';
import type { DismissMergeSuggestionRequest as _memoryd_v1_DismissMergeSuggestionRequest, DismissMergeSuggestionRequest__Output as _memoryd_v1_DismissMergeSuggestionRequest__Output } from './memoryd/v1/DismissMergeSuggestionRequest';
import type { DismissMergeSuggestionResponse as _memoryd_v1_DismissMergeSuggestionResponse, DismissMergeSuggestionResponse__Output as _memoryd_v1_DismissMergeSuggestionResponse__Output } from './memoryd/v1/DismissMergeSuggestionResponse';
import type { EntityPair as _memoryd_v1_EntityPair, EntityPair__Output as _memoryd_v1_EntityPair__Output } from './memoryd/v1/EntityPair';
import type { ExplainFactRequest as _memoryd_v1_ExplainFactRequest, ExplainFactRequest__Output as _memoryd_v1_ExplainFactRequest__Output } from './memoryd/v1/ExplainFactRequest';
import type { ExplainFactResponse as _memoryd_v1_ExplainFactResponse, ExplainFactResponse__Output as _memoryd_v1_ExplainFactResponse__Output } from './memoryd/v1/ExplainFactResponse';
import type { ExplainedMemory as _memoryd_v1_ExplainedMemory, ExplainedMemory__Output as _memoryd_v1_ExplainedMemory__Output } from './memoryd/v1/ExplainedMemory';
import type { FeedbackRequest as _memoryd_v1_FeedbackRequest, FeedbackRequest__Output as _memoryd_v1_FeedbackRequest__Output } from './memoryd/v1/FeedbackRequest';
import type { FeedbackResponse as _memoryd_v1_FeedbackResponse, FeedbackResponse__Output as _memoryd_v1_FeedbackResponse__Output } from './memoryd/v1/FeedbackResponse';
import type { FeedbackSummary as _memoryd_v1_FeedbackSummary, FeedbackSummary__Output as _memoryd_v1_FeedbackSummary__Output } from './memoryd/v1/FeedbackSummary';
import type { ForgetFactRequest as _memoryd_v1_ForgetFactRequest, ForgetFactRequest__Output as _memoryd_v1_ForgetFactRequest__Output } from './memoryd/v1/ForgetFactRequest';
import type { ForgetFactResponse as _memoryd_v1_ForgetFactResponse, ForgetFactResponse__Output as _memoryd_v1_ForgetFactResponse__Output } from './memoryd/v1/ForgetFactResponse';
import type { ForgetRequest as _memoryd_v1_ForgetRequest, ForgetRequest__Output as _memoryd_v1_ForgetRequest__Output } from './memoryd/v1/ForgetRequest';
import type { ForgetResponse as _memoryd_v1_ForgetResponse, ForgetResponse__Output as _memoryd_v1_ForgetResponse__Output } from './memoryd/v1/ForgetResponse';
import type { GetEntityRequest as _memoryd_v1_GetEntityRequest, GetEntityRequest__Output as _memoryd_v1_GetEntityRequest__Output } from './memoryd/v1/GetEntityRequest';
import type { GetEntityResponse as _memoryd_v1_GetEntityResponse, GetEntityResponse__Output as _memoryd_v1_GetEntityResponse__Output } from './memoryd/v1/GetEntityResponse';
import type { GetMemoryHistoryRequest as _memoryd_v1_GetMemoryHistoryRequest, GetMemoryHistoryRequest__Output as _memoryd_v1_GetMemoryHistoryRequest__Output } from './memoryd/v1/GetMemoryHistoryRequest';
import type { GetMemoryHistoryResponse as _memoryd_v1_GetMemoryHistoryResponse, GetMemoryHistoryResponse__Output as _memoryd_v1_GetMemoryHistoryResponse__Output } from './memoryd/v1/GetMemoryHistoryResponse';
import type { GetMemoryRequest as _memoryd_v1_GetMemoryRequest, GetMemoryRequest__Output as _memoryd_v1_GetMemoryRequest__Output } from './memoryd/v1/GetMemoryRequest';
import type { GetMemoryResponse as _memoryd_v1_GetMemoryResponse, GetMemoryResponse__Output as _memoryd_v1_GetMemoryResponse__Output } from './memoryd/v1/GetMemoryResponse';
import type { GraphEntity as _memoryd_v1_GraphEntity, GraphEntity__Output as _memoryd_v1_GraphEntity__Output } from './memoryd/v1/GraphEntity';
import type { GraphEpisode as _memoryd_v1_GraphEpisode, GraphEpisode__Output as _memoryd_v1_GraphEpisode__Output } from './memoryd/v1/GraphEpisode';
import type { GraphFact as _memoryd_v1_GraphFact, GraphFact__Output as _memoryd_v1_GraphFact__Output } from './memoryd/v1/GraphFact';
import type { GraphServiceClient as _memoryd_v1_GraphServiceClient, GraphServiceDefinition as _memoryd_v1_GraphServiceDefinition } from './memoryd/v1/GraphService';
import type { ListEntitiesRequest as _memoryd_v1_ListEntitiesRequest, ListEntitiesRequest__Output as _memoryd_v1_ListEntitiesRequest__Output } from './memoryd/v1/ListEntitiesRequest';
import type { ListEntitiesResponse as _memoryd_v1_ListEntitiesResponse, ListEntitiesResponse__Output as _memoryd_v1_ListEntitiesResponse__Output } from './memoryd/v1/ListEntitiesResponse';
import type { ListEpisodesRequest as _memoryd_v1_ListEpisodesRequest, ListEpisodesRequest__Output as _memoryd_v1_ListEpisodesRequest__Output } from './memoryd/v1/ListEpisodesRequest';
import type { ListEpisodesResponse as _memoryd_v1_ListEpisodesResponse, ListEpisodesResponse__Output as _memoryd_v1_ListEpisodesResponse__Output } from './memoryd/v1/ListEpisodesResponse';
import type { ListFactsRequest as _memoryd_v1_ListFactsRequest, ListFactsRequest__Output as _memoryd_v1_ListFactsRequest__Output } from './memoryd/v1/ListFactsRequest';
import type { ListFactsResponse as _memoryd_v1_ListFactsResponse, ListFactsResponse__Output as _memoryd_v1_ListFactsResponse__Output } from './memoryd/v1/ListFactsResponse';
import type { ListMemoriesRequest as _memoryd_v1_ListMemoriesRequest, ListMemoriesRequest__Output as _memoryd_v1_ListMemoriesRequest__Output } from './memoryd/v1/ListMemoriesRequest';
import type { ListMemoriesResponse as _memoryd_v1_ListMemoriesResponse, ListMemoriesResponse__Output as _memoryd_v1_ListMemoriesResponse__Output } from './memoryd/v1/ListMemoriesResponse';
import type { ListMergeSuggestionsRequest as _memoryd_v1_ListMergeSuggestionsRequest, ListMergeSuggestionsRequest__Output as _memoryd_v1_ListMergeSuggestionsRequest__Output } from './memoryd/v1/ListMergeSuggestionsRequest';
import type { ListMergeSuggestionsResponse as _memoryd_v1_ListMergeSuggestionsResponse, ListMergeSuggestionsResponse__Output as _memoryd_v1_ListMergeSuggestionsResponse__Output } from './memoryd/v1/ListMergeSuggestionsResponse';
import type { MemorizeBatchRequest as _memoryd_v1_MemorizeBatchRequest, MemorizeBatchRequest__Output as _memoryd_v1_MemorizeBatchRequest__Output } from './memoryd/v1/MemorizeBatchRequest';
import type { MemorizeBatchResponse as _memoryd_v1_MemorizeBatchResponse, MemorizeBatchResponse__Output as _memoryd_v1_MemorizeBatchResponse__Output } from './memoryd/v1/MemorizeBatchResponse';
import type { MemorizeRequest as _memoryd_v1_MemorizeRequest, MemorizeRequest__Output as _memoryd_v1_MemorizeRequest__Output } from './memoryd/v1/MemorizeRequest';
import type { MemorizeResponse as _memoryd_v1_MemorizeResponse, MemorizeResponse__Output as _memoryd_v1_MemorizeResponse__Output } from './memoryd/v1/MemorizeResponse';
import type { Memory as _memoryd_v1_Memory, Memory__Output as _memoryd_v1_Memory__Output } from './memoryd/v1/Memory';
import type { MemoryHistoryEvent as _memoryd_v1_MemoryHistoryEvent, MemoryHistoryEvent__Output as _memoryd_v1_MemoryHistoryEvent__Output } from './memoryd/v1/MemoryHistoryEvent';
import type { MemoryInput as _memoryd_v1_MemoryInput, MemoryInput__Output as _memoryd_v1_MemoryInput__Output } from './memoryd/v1/MemoryInput';
import type { MemoryServiceClient as _memoryd_v1_MemoryServiceClient, MemoryServiceDefinition as _memoryd_v1_MemoryServiceDefinition } from './memoryd/v1/MemoryService';
import type { MergeEntitiesRequest as _memoryd_v1_MergeEntitiesRequest, MergeEntitiesRequest__Output as _memoryd_v1_MergeEntitiesRequest__Output } from './memoryd/v1/MergeEntitiesRequest';
import type { MergeEntitiesResponse as _memoryd_v1_MergeEntitiesResponse, MergeEntitiesResponse__Output as _memoryd_v1_MergeEntitiesResponse__Output } from './memoryd/v1/MergeEntitiesResponse';
import type { MergeSuggestion as _memoryd_v1_MergeSuggestion, MergeSuggestion__Output as _memoryd_v1_MergeSuggestion__Output } from './memoryd/v1/MergeSuggestion';
import type { RecallFilter as _memoryd_v1_RecallFilter, RecallFilter__Output as _memoryd_v1_RecallFilter__Output } from './memoryd/v1/RecallFilter';
import type { RecallHit as _memoryd_v1_RecallHit, RecallHit__Output as _memoryd_v1_RecallHit__Output } from './memoryd/v1/RecallHit';
import type { RecallRequest as _memoryd_v1_RecallRequest, RecallRequest__Output as _memoryd_v1_RecallRequest__Output } from './memoryd/v1/RecallRequest';
import type { RecallResponse as _memoryd_v1_RecallResponse, RecallResponse__Output as _memoryd_v1_RecallResponse__Output } from './memoryd/v1/RecallResponse';
import type { RecallTrace as _memoryd_v1_RecallTrace, RecallTrace__Output as _memoryd_v1_RecallTrace__Output } from './memoryd/v1/RecallTrace';
import type { RenameEntityRequest as _memoryd_v1_RenameEntityRequest, RenameEntityRequest__Output as _memoryd_v1_RenameEntityRequest__Output } from './memoryd/v1/RenameEntityRequest';
import type { RenameEntityResponse as _memoryd_v1_RenameEntityResponse, RenameEntityResponse__Output as _memoryd_v1_RenameEntityResponse__Output } from './memoryd/v1/RenameEntityResponse';
import type { RestoreMemoryRequest as _memoryd_v1_RestoreMemoryRequest, RestoreMemoryRequest__Output as _memoryd_v1_RestoreMemoryRequest__Output } from './memoryd/v1/RestoreMemoryRequest';
import type { RestoreMemoryResponse as _memoryd_v1_RestoreMemoryResponse, RestoreMemoryResponse__Output as _memoryd_v1_RestoreMemoryResponse__Output } from './memoryd/v1/RestoreMemoryResponse';
import type { ScoreParts as _memoryd_v1_ScoreParts, ScoreParts__Output as _memoryd_v1_ScoreParts__Output } from './memoryd/v1/ScoreParts';
import type { SearchGraphRequest as _memoryd_v1_SearchGraphRequest, SearchGraphRequest__Output as _memoryd_v1_SearchGraphRequest__Output } from './memoryd/v1/SearchGraphRequest';
import type { SearchGraphResponse as _memoryd_v1_SearchGraphResponse, SearchGraphResponse__Output as _memoryd_v1_SearchGraphResponse__Output } from './memoryd/v1/SearchGraphResponse';
import type { TagList as _memoryd_v1_TagList, TagList__Output as _memoryd_v1_TagList__Output } from './memoryd/v1/TagList';
import type { TraceCandidate as _memoryd_v1_TraceCandidate, TraceCandidate__Output as _memoryd_v1_TraceCandidate__Output } from './memoryd/v1/TraceCandidate';
import type { UnmergeEntityRequest as _memoryd_v1_UnmergeEntityRequest, UnmergeEntityRequest__Output as _memoryd_v1_UnmergeEntityRequest__Output } from './memoryd/v1/UnmergeEntityRequest';
import type { UnmergeEntityResponse as _memoryd_v1_UnmergeEntityResponse, UnmergeEntityResponse__Output as _memoryd_v1_UnmergeEntityResponse__Output } from './memoryd/v1/UnmergeEntityResponse';
import type { UpdateFactRequest as _memoryd_v1_UpdateFactRequest, UpdateFactRequest__Output as _memoryd_v1_UpdateFactRequest__Output } from './memoryd/v1/UpdateFactRequest';
import type { UpdateFactResponse as _memoryd_v1_UpdateFactResponse, UpdateFactResponse__Output as _memoryd_v1_UpdateFactResponse__Output } from './memoryd/v1/UpdateFactResponse';
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
      AssertFactRequest: MessageTypeDefinition<_memoryd_v1_AssertFactRequest, _memoryd_v1_AssertFactRequest__Output>
      AssertFactResponse: MessageTypeDefinition<_memoryd_v1_AssertFactResponse, _memoryd_v1_AssertFactResponse__Output>
      AutoFeedbackRequest: MessageTypeDefinition<_memoryd_v1_AutoFeedbackRequest, _memoryd_v1_AutoFeedbackRequest__Output>
      AutoFeedbackResponse: MessageTypeDefinition<_memoryd_v1_AutoFeedbackResponse, _memoryd_v1_AutoFeedbackResponse__Output>
      DismissMergeSuggestionRequest: MessageTypeDefinition<_memoryd_v1_DismissMergeSuggestionRequest, _memoryd_v1_DismissMergeSuggestionRequest__Output>
      DismissMergeSuggestionResponse: MessageTypeDefinition<_memoryd_v1_DismissMergeSuggestionResponse, _memoryd_v1_DismissMergeSuggestionResponse__Output>
      EntityPair: MessageTypeDefinition<_memoryd_v1_EntityPair, _memoryd_v1_EntityPair__Output>
      EntityType: EnumTypeDefinition
      ExplainFactRequest: MessageTypeDefinition<_memoryd_v1_ExplainFactRequest, _memoryd_v1_ExplainFactRequest__Output>
      ExplainFactResponse: MessageTypeDefinition<_memoryd_v1_ExplainFactResponse, _memoryd_v1_ExplainFactResponse__Output>
      ExplainedMemory: MessageTypeDefinition<_memoryd_v1_ExplainedMemory, _memoryd_v1_ExplainedMemory__Output>
      FactStatus: EnumTypeDefinition
      FeedbackRequest: MessageTypeDefinition<_memoryd_v1_FeedbackRequest, _memoryd_v1_FeedbackRequest__Output>
      FeedbackResponse: MessageTypeDefinition<_memoryd_v1_FeedbackResponse, _memoryd_v1_FeedbackResponse__Output>
      FeedbackSignal: EnumTypeDefinition
      FeedbackSummary: MessageTypeDefinition<_memoryd_v1_FeedbackSummary, _memoryd_v1_FeedbackSummary__Output>
      ForgetFactRequest: MessageTypeDefinition<_memoryd_v1_ForgetFactRequest, _memoryd_v1_ForgetFactRequest__Output>
      ForgetFactResponse: MessageTypeDefinition<_memoryd_v1_ForgetFactResponse, _memoryd_v1_ForgetFactResponse__Output>
      ForgetRequest: MessageTypeDefinition<_memoryd_v1_ForgetRequest, _memoryd_v1_ForgetRequest__Output>
      ForgetResponse: MessageTypeDefinition<_memoryd_v1_ForgetResponse, _memoryd_v1_ForgetResponse__Output>
      GetEntityRequest: MessageTypeDefinition<_memoryd_v1_GetEntityRequest, _memoryd_v1_GetEntityRequest__Output>
      GetEntityResponse: MessageTypeDefinition<_memoryd_v1_GetEntityResponse, _memoryd_v1_GetEntityResponse__Output>
      GetMemoryHistoryRequest: MessageTypeDefinition<_memoryd_v1_GetMemoryHistoryRequest, _memoryd_v1_GetMemoryHistoryRequest__Output>
      GetMemoryHistoryResponse: MessageTypeDefinition<_memoryd_v1_GetMemoryHistoryResponse, _memoryd_v1_GetMemoryHistoryResponse__Output>
      GetMemoryRequest: MessageTypeDefinition<_memoryd_v1_GetMemoryRequest, _memoryd_v1_GetMemoryRequest__Output>
      GetMemoryResponse: MessageTypeDefinition<_memoryd_v1_GetMemoryResponse, _memoryd_v1_GetMemoryResponse__Output>
      GraphEntity: MessageTypeDefinition<_memoryd_v1_GraphEntity, _memoryd_v1_GraphEntity__Output>
      GraphEpisode: MessageTypeDefinition<_memoryd_v1_GraphEpisode, _memoryd_v1_GraphEpisode__Output>
      GraphFact: MessageTypeDefinition<_memoryd_v1_GraphFact, _memoryd_v1_GraphFact__Output>
      /**
       * GraphService searches and curates the graph. SearchGraph and ExplainFact: any key; the rest:
       * the admin role (the audit log records scopes and ids, never a fact's text).
       */
      GraphService: SubtypeConstructor<typeof grpc.Client, _memoryd_v1_GraphServiceClient> & { service: _memoryd_v1_GraphServiceDefinition }
      ListEntitiesRequest: MessageTypeDefinition<_memoryd_v1_ListEntitiesRequest, _memoryd_v1_ListEntitiesRequest__Output>
      ListEntitiesResponse: MessageTypeDefinition<_memoryd_v1_ListEntitiesResponse, _memoryd_v1_ListEntitiesResponse__Output>
      ListEpisodesRequest: MessageTypeDefinition<_memoryd_v1_ListEpisodesRequest, _memoryd_v1_ListEpisodesRequest__Output>
      ListEpisodesResponse: MessageTypeDefinition<_memoryd_v1_ListEpisodesResponse, _memoryd_v1_ListEpisodesResponse__Output>
      ListFactsRequest: MessageTypeDefinition<_memoryd_v1_ListFactsRequest, _memoryd_v1_ListFactsRequest__Output>
      ListFactsResponse: MessageTypeDefinition<_memoryd_v1_ListFactsResponse, _memoryd_v1_ListFactsResponse__Output>
      ListMemoriesRequest: MessageTypeDefinition<_memoryd_v1_ListMemoriesRequest, _memoryd_v1_ListMemoriesRequest__Output>
      ListMemoriesResponse: MessageTypeDefinition<_memoryd_v1_ListMemoriesResponse, _memoryd_v1_ListMemoriesResponse__Output>
      ListMergeSuggestionsRequest: MessageTypeDefinition<_memoryd_v1_ListMergeSuggestionsRequest, _memoryd_v1_ListMergeSuggestionsRequest__Output>
      ListMergeSuggestionsResponse: MessageTypeDefinition<_memoryd_v1_ListMergeSuggestionsResponse, _memoryd_v1_ListMergeSuggestionsResponse__Output>
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
      MergeEntitiesRequest: MessageTypeDefinition<_memoryd_v1_MergeEntitiesRequest, _memoryd_v1_MergeEntitiesRequest__Output>
      MergeEntitiesResponse: MessageTypeDefinition<_memoryd_v1_MergeEntitiesResponse, _memoryd_v1_MergeEntitiesResponse__Output>
      MergeSuggestion: MessageTypeDefinition<_memoryd_v1_MergeSuggestion, _memoryd_v1_MergeSuggestion__Output>
      RankingMode: EnumTypeDefinition
      RecallArms: EnumTypeDefinition
      RecallFilter: MessageTypeDefinition<_memoryd_v1_RecallFilter, _memoryd_v1_RecallFilter__Output>
      RecallHit: MessageTypeDefinition<_memoryd_v1_RecallHit, _memoryd_v1_RecallHit__Output>
      RecallRequest: MessageTypeDefinition<_memoryd_v1_RecallRequest, _memoryd_v1_RecallRequest__Output>
      RecallResponse: MessageTypeDefinition<_memoryd_v1_RecallResponse, _memoryd_v1_RecallResponse__Output>
      RecallTrace: MessageTypeDefinition<_memoryd_v1_RecallTrace, _memoryd_v1_RecallTrace__Output>
      RenameEntityRequest: MessageTypeDefinition<_memoryd_v1_RenameEntityRequest, _memoryd_v1_RenameEntityRequest__Output>
      RenameEntityResponse: MessageTypeDefinition<_memoryd_v1_RenameEntityResponse, _memoryd_v1_RenameEntityResponse__Output>
      RestoreMemoryRequest: MessageTypeDefinition<_memoryd_v1_RestoreMemoryRequest, _memoryd_v1_RestoreMemoryRequest__Output>
      RestoreMemoryResponse: MessageTypeDefinition<_memoryd_v1_RestoreMemoryResponse, _memoryd_v1_RestoreMemoryResponse__Output>
      Scope: EnumTypeDefinition
      ScoreParts: MessageTypeDefinition<_memoryd_v1_ScoreParts, _memoryd_v1_ScoreParts__Output>
      SearchGraphRequest: MessageTypeDefinition<_memoryd_v1_SearchGraphRequest, _memoryd_v1_SearchGraphRequest__Output>
      SearchGraphResponse: MessageTypeDefinition<_memoryd_v1_SearchGraphResponse, _memoryd_v1_SearchGraphResponse__Output>
      TagList: MessageTypeDefinition<_memoryd_v1_TagList, _memoryd_v1_TagList__Output>
      TagMode: EnumTypeDefinition
      TraceCandidate: MessageTypeDefinition<_memoryd_v1_TraceCandidate, _memoryd_v1_TraceCandidate__Output>
      UnmergeEntityRequest: MessageTypeDefinition<_memoryd_v1_UnmergeEntityRequest, _memoryd_v1_UnmergeEntityRequest__Output>
      UnmergeEntityResponse: MessageTypeDefinition<_memoryd_v1_UnmergeEntityResponse, _memoryd_v1_UnmergeEntityResponse__Output>
      UpdateFactRequest: MessageTypeDefinition<_memoryd_v1_UpdateFactRequest, _memoryd_v1_UpdateFactRequest__Output>
      UpdateFactResponse: MessageTypeDefinition<_memoryd_v1_UpdateFactResponse, _memoryd_v1_UpdateFactResponse__Output>
      UpdateMemoryRequest: MessageTypeDefinition<_memoryd_v1_UpdateMemoryRequest, _memoryd_v1_UpdateMemoryRequest__Output>
      UpdateMemoryResponse: MessageTypeDefinition<_memoryd_v1_UpdateMemoryResponse, _memoryd_v1_UpdateMemoryResponse__Output>
      UsedResult: MessageTypeDefinition<_memoryd_v1_UsedResult, _memoryd_v1_UsedResult__Output>
    }
  }
}

