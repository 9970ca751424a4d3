// Original file: ../../proto/memoryd/v1/graph.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AssertFactRequest as _memoryd_v1_AssertFactRequest, AssertFactRequest__Output as _memoryd_v1_AssertFactRequest__Output } from '../../memoryd/v1/AssertFactRequest';
import type { AssertFactResponse as _memoryd_v1_AssertFactResponse, AssertFactResponse__Output as _memoryd_v1_AssertFactResponse__Output } from '../../memoryd/v1/AssertFactResponse';
import type { DismissMergeSuggestionRequest as _memoryd_v1_DismissMergeSuggestionRequest, DismissMergeSuggestionRequest__Output as _memoryd_v1_DismissMergeSuggestionRequest__Output } from '../../memoryd/v1/DismissMergeSuggestionRequest';
import type { DismissMergeSuggestionResponse as _memoryd_v1_DismissMergeSuggestionResponse, DismissMergeSuggestionResponse__Output as _memoryd_v1_DismissMergeSuggestionResponse__Output } from '../../memoryd/v1/DismissMergeSuggestionResponse';
import type { ExplainFactRequest as _memoryd_v1_ExplainFactRequest, ExplainFactRequest__Output as _memoryd_v1_ExplainFactRequest__Output } from '../../memoryd/v1/ExplainFactRequest';
import type { ExplainFactResponse as _memoryd_v1_ExplainFactResponse, ExplainFactResponse__Output as _memoryd_v1_ExplainFactResponse__Output } from '../../memoryd/v1/ExplainFactResponse';
import type { ForgetFactRequest as _memoryd_v1_ForgetFactRequest, ForgetFactRequest__Output as _memoryd_v1_ForgetFactRequest__Output } from '../../memoryd/v1/ForgetFactRequest';
import type { ForgetFactResponse as _memoryd_v1_ForgetFactResponse, ForgetFactResponse__Output as _memoryd_v1_ForgetFactResponse__Output } from '../../memoryd/v1/ForgetFactResponse';
import type { GetEntityRequest as _memoryd_v1_GetEntityRequest, GetEntityRequest__Output as _memoryd_v1_GetEntityRequest__Output } from '../../memoryd/v1/GetEntityRequest';
import type { GetEntityResponse as _memoryd_v1_GetEntityResponse, GetEntityResponse__Output as _memoryd_v1_GetEntityResponse__Output } from '../../memoryd/v1/GetEntityResponse';
import type { ListEntitiesRequest as _memoryd_v1_ListEntitiesRequest, ListEntitiesRequest__Output as _memoryd_v1_ListEntitiesRequest__Output } from '../../memoryd/v1/ListEntitiesRequest';
import type { ListEntitiesResponse as _memoryd_v1_ListEntitiesResponse, ListEntitiesResponse__Output as _memoryd_v1_ListEntitiesResponse__Output } from '../../memoryd/v1/ListEntitiesResponse';
import type { ListEpisodesRequest as _memoryd_v1_ListEpisodesRequest, ListEpisodesRequest__Output as _memoryd_v1_ListEpisodesRequest__Output } from '../../memoryd/v1/ListEpisodesRequest';
import type { ListEpisodesResponse as _memoryd_v1_ListEpisodesResponse, ListEpisodesResponse__Output as _memoryd_v1_ListEpisodesResponse__Output } from '../../memoryd/v1/ListEpisodesResponse';
import type { ListFactsRequest as _memoryd_v1_ListFactsRequest, ListFactsRequest__Output as _memoryd_v1_ListFactsRequest__Output } from '../../memoryd/v1/ListFactsRequest';
import type { ListFactsResponse as _memoryd_v1_ListFactsResponse, ListFactsResponse__Output as _memoryd_v1_ListFactsResponse__Output } from '../../memoryd/v1/ListFactsResponse';
import type { ListMergeSuggestionsRequest as _memoryd_v1_ListMergeSuggestionsRequest, ListMergeSuggestionsRequest__Output as _memoryd_v1_ListMergeSuggestionsRequest__Output } from '../../memoryd/v1/ListMergeSuggestionsRequest';
import type { ListMergeSuggestionsResponse as _memoryd_v1_ListMergeSuggestionsResponse, ListMergeSuggestionsResponse__Output as _memoryd_v1_ListMergeSuggestionsResponse__Output } from '../../memoryd/v1/ListMergeSuggestionsResponse';
import type { MergeEntitiesRequest as _memoryd_v1_MergeEntitiesRequest, MergeEntitiesRequest__Output as _memoryd_v1_MergeEntitiesRequest__Output } from '../../memoryd/v1/MergeEntitiesRequest';
import type { MergeEntitiesResponse as _memoryd_v1_MergeEntitiesResponse, MergeEntitiesResponse__Output as _memoryd_v1_MergeEntitiesResponse__Output } from '../../memoryd/v1/MergeEntitiesResponse';
import type { RenameEntityRequest as _memoryd_v1_RenameEntityRequest, RenameEntityRequest__Output as _memoryd_v1_RenameEntityRequest__Output } from '../../memoryd/v1/RenameEntityRequest';
import type { RenameEntityResponse as _memoryd_v1_RenameEntityResponse, RenameEntityResponse__Output as _memoryd_v1_RenameEntityResponse__Output } from '../../memoryd/v1/RenameEntityResponse';
import type { SearchGraphRequest as _memoryd_v1_SearchGraphRequest, SearchGraphRequest__Output as _memoryd_v1_SearchGraphRequest__Output } from '../../memoryd/v1/SearchGraphRequest';
import type { SearchGraphResponse as _memoryd_v1_SearchGraphResponse, SearchGraphResponse__Output as _memoryd_v1_SearchGraphResponse__Output } from '../../memoryd/v1/SearchGraphResponse';
import type { UnmergeEntityRequest as _memoryd_v1_UnmergeEntityRequest, UnmergeEntityRequest__Output as _memoryd_v1_UnmergeEntityRequest__Output } from '../../memoryd/v1/UnmergeEntityRequest';
import type { UnmergeEntityResponse as _memoryd_v1_UnmergeEntityResponse, UnmergeEntityResponse__Output as _memoryd_v1_UnmergeEntityResponse__Output } from '../../memoryd/v1/UnmergeEntityResponse';
import type { UpdateFactRequest as _memoryd_v1_UpdateFactRequest, UpdateFactRequest__Output as _memoryd_v1_UpdateFactRequest__Output } from '../../memoryd/v1/UpdateFactRequest';
import type { UpdateFactResponse as _memoryd_v1_UpdateFactResponse, UpdateFactResponse__Output as _memoryd_v1_UpdateFactResponse__Output } from '../../memoryd/v1/UpdateFactResponse';

/**
 * GraphService searches and curates the graph. SearchGraph and ExplainFact: any key; the rest:
 * the admin role (the audit log records scopes and ids, never a fact's text).
 */
export interface GraphServiceClient extends grpc.Client {
  /**
   * AssertFact records a person's fact (its own human episode), creating entities as needed and
   * invalidating what it contradicts.
   */
  AssertFact(argument: _memoryd_v1_AssertFactRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_AssertFactResponse__Output>): grpc.ClientUnaryCall;
  AssertFact(argument: _memoryd_v1_AssertFactRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_AssertFactResponse__Output>): grpc.ClientUnaryCall;
  AssertFact(argument: _memoryd_v1_AssertFactRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_AssertFactResponse__Output>): grpc.ClientUnaryCall;
  AssertFact(argument: _memoryd_v1_AssertFactRequest, callback: grpc.requestCallback<_memoryd_v1_AssertFactResponse__Output>): grpc.ClientUnaryCall;
  /**
   * AssertFact records a person's fact (its own human episode), creating entities as needed and
   * invalidating what it contradicts.
   */
  assertFact(argument: _memoryd_v1_AssertFactRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_AssertFactResponse__Output>): grpc.ClientUnaryCall;
  assertFact(argument: _memoryd_v1_AssertFactRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_AssertFactResponse__Output>): grpc.ClientUnaryCall;
  assertFact(argument: _memoryd_v1_AssertFactRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_AssertFactResponse__Output>): grpc.ClientUnaryCall;
  assertFact(argument: _memoryd_v1_AssertFactRequest, callback: grpc.requestCallback<_memoryd_v1_AssertFactResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * DismissMergeSuggestion records that the two entities are different (kept dismissed: the pair
   * is not suggested again). Admin keys, as MergeEntities.
   */
  DismissMergeSuggestion(argument: _memoryd_v1_DismissMergeSuggestionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_DismissMergeSuggestionResponse__Output>): grpc.ClientUnaryCall;
  DismissMergeSuggestion(argument: _memoryd_v1_DismissMergeSuggestionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_DismissMergeSuggestionResponse__Output>): grpc.ClientUnaryCall;
  DismissMergeSuggestion(argument: _memoryd_v1_DismissMergeSuggestionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_DismissMergeSuggestionResponse__Output>): grpc.ClientUnaryCall;
  DismissMergeSuggestion(argument: _memoryd_v1_DismissMergeSuggestionRequest, callback: grpc.requestCallback<_memoryd_v1_DismissMergeSuggestionResponse__Output>): grpc.ClientUnaryCall;
  /**
   * DismissMergeSuggestion records that the two entities are different (kept dismissed: the pair
   * is not suggested again). Admin keys, as MergeEntities.
   */
  dismissMergeSuggestion(argument: _memoryd_v1_DismissMergeSuggestionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_DismissMergeSuggestionResponse__Output>): grpc.ClientUnaryCall;
  dismissMergeSuggestion(argument: _memoryd_v1_DismissMergeSuggestionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_DismissMergeSuggestionResponse__Output>): grpc.ClientUnaryCall;
  dismissMergeSuggestion(argument: _memoryd_v1_DismissMergeSuggestionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_DismissMergeSuggestionResponse__Output>): grpc.ClientUnaryCall;
  dismissMergeSuggestion(argument: _memoryd_v1_DismissMergeSuggestionRequest, callback: grpc.requestCallback<_memoryd_v1_DismissMergeSuggestionResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * ExplainFact shows a visible fact's history: what it superseded and what superseded it.
   */
  ExplainFact(argument: _memoryd_v1_ExplainFactRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ExplainFactResponse__Output>): grpc.ClientUnaryCall;
  ExplainFact(argument: _memoryd_v1_ExplainFactRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ExplainFactResponse__Output>): grpc.ClientUnaryCall;
  ExplainFact(argument: _memoryd_v1_ExplainFactRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ExplainFactResponse__Output>): grpc.ClientUnaryCall;
  ExplainFact(argument: _memoryd_v1_ExplainFactRequest, callback: grpc.requestCallback<_memoryd_v1_ExplainFactResponse__Output>): grpc.ClientUnaryCall;
  /**
   * ExplainFact shows a visible fact's history: what it superseded and what superseded it.
   */
  explainFact(argument: _memoryd_v1_ExplainFactRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ExplainFactResponse__Output>): grpc.ClientUnaryCall;
  explainFact(argument: _memoryd_v1_ExplainFactRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ExplainFactResponse__Output>): grpc.ClientUnaryCall;
  explainFact(argument: _memoryd_v1_ExplainFactRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ExplainFactResponse__Output>): grpc.ClientUnaryCall;
  explainFact(argument: _memoryd_v1_ExplainFactRequest, callback: grpc.requestCallback<_memoryd_v1_ExplainFactResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * ForgetFact deletes one fact: the administrator's compliance delete (nothing else deletes).
   */
  ForgetFact(argument: _memoryd_v1_ForgetFactRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ForgetFactResponse__Output>): grpc.ClientUnaryCall;
  ForgetFact(argument: _memoryd_v1_ForgetFactRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ForgetFactResponse__Output>): grpc.ClientUnaryCall;
  ForgetFact(argument: _memoryd_v1_ForgetFactRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ForgetFactResponse__Output>): grpc.ClientUnaryCall;
  ForgetFact(argument: _memoryd_v1_ForgetFactRequest, callback: grpc.requestCallback<_memoryd_v1_ForgetFactResponse__Output>): grpc.ClientUnaryCall;
  /**
   * ForgetFact deletes one fact: the administrator's compliance delete (nothing else deletes).
   */
  forgetFact(argument: _memoryd_v1_ForgetFactRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ForgetFactResponse__Output>): grpc.ClientUnaryCall;
  forgetFact(argument: _memoryd_v1_ForgetFactRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ForgetFactResponse__Output>): grpc.ClientUnaryCall;
  forgetFact(argument: _memoryd_v1_ForgetFactRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ForgetFactResponse__Output>): grpc.ClientUnaryCall;
  forgetFact(argument: _memoryd_v1_ForgetFactRequest, callback: grpc.requestCallback<_memoryd_v1_ForgetFactResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GetEntity returns an entity the caller sees and the memories that annotate it (a memory's
   * `source_id` may name a graph entity as well as a memory): the first 100 the caller sees, oldest
   * first; ListMemories with `filter.source_id` pages through all.
   */
  GetEntity(argument: _memoryd_v1_GetEntityRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetEntityResponse__Output>): grpc.ClientUnaryCall;
  GetEntity(argument: _memoryd_v1_GetEntityRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_GetEntityResponse__Output>): grpc.ClientUnaryCall;
  GetEntity(argument: _memoryd_v1_GetEntityRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetEntityResponse__Output>): grpc.ClientUnaryCall;
  GetEntity(argument: _memoryd_v1_GetEntityRequest, callback: grpc.requestCallback<_memoryd_v1_GetEntityResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GetEntity returns an entity the caller sees and the memories that annotate it (a memory's
   * `source_id` may name a graph entity as well as a memory): the first 100 the caller sees, oldest
   * first; ListMemories with `filter.source_id` pages through all.
   */
  getEntity(argument: _memoryd_v1_GetEntityRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetEntityResponse__Output>): grpc.ClientUnaryCall;
  getEntity(argument: _memoryd_v1_GetEntityRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_GetEntityResponse__Output>): grpc.ClientUnaryCall;
  getEntity(argument: _memoryd_v1_GetEntityRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetEntityResponse__Output>): grpc.ClientUnaryCall;
  getEntity(argument: _memoryd_v1_GetEntityRequest, callback: grpc.requestCallback<_memoryd_v1_GetEntityResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * ListEntities pages the entities the caller sees that no merge folded away (`merged`: those
   * one did), by name.
   */
  ListEntities(argument: _memoryd_v1_ListEntitiesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListEntitiesResponse__Output>): grpc.ClientUnaryCall;
  ListEntities(argument: _memoryd_v1_ListEntitiesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ListEntitiesResponse__Output>): grpc.ClientUnaryCall;
  ListEntities(argument: _memoryd_v1_ListEntitiesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListEntitiesResponse__Output>): grpc.ClientUnaryCall;
  ListEntities(argument: _memoryd_v1_ListEntitiesRequest, callback: grpc.requestCallback<_memoryd_v1_ListEntitiesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * ListEntities pages the entities the caller sees that no merge folded away (`merged`: those
   * one did), by name.
   */
  listEntities(argument: _memoryd_v1_ListEntitiesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListEntitiesResponse__Output>): grpc.ClientUnaryCall;
  listEntities(argument: _memoryd_v1_ListEntitiesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ListEntitiesResponse__Output>): grpc.ClientUnaryCall;
  listEntities(argument: _memoryd_v1_ListEntitiesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListEntitiesResponse__Output>): grpc.ClientUnaryCall;
  listEntities(argument: _memoryd_v1_ListEntitiesRequest, callback: grpc.requestCallback<_memoryd_v1_ListEntitiesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * ListEpisodes pages the episodes the caller sees (each extraction of a conversation, each
   * person's assertion: where facts came from), the newest first.
   */
  ListEpisodes(argument: _memoryd_v1_ListEpisodesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListEpisodesResponse__Output>): grpc.ClientUnaryCall;
  ListEpisodes(argument: _memoryd_v1_ListEpisodesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ListEpisodesResponse__Output>): grpc.ClientUnaryCall;
  ListEpisodes(argument: _memoryd_v1_ListEpisodesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListEpisodesResponse__Output>): grpc.ClientUnaryCall;
  ListEpisodes(argument: _memoryd_v1_ListEpisodesRequest, callback: grpc.requestCallback<_memoryd_v1_ListEpisodesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * ListEpisodes pages the episodes the caller sees (each extraction of a conversation, each
   * person's assertion: where facts came from), the newest first.
   */
  listEpisodes(argument: _memoryd_v1_ListEpisodesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListEpisodesResponse__Output>): grpc.ClientUnaryCall;
  listEpisodes(argument: _memoryd_v1_ListEpisodesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ListEpisodesResponse__Output>): grpc.ClientUnaryCall;
  listEpisodes(argument: _memoryd_v1_ListEpisodesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListEpisodesResponse__Output>): grpc.ClientUnaryCall;
  listEpisodes(argument: _memoryd_v1_ListEpisodesRequest, callback: grpc.requestCallback<_memoryd_v1_ListEpisodesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * ListFacts pages the facts the caller sees as `agent_id` serving `end_user_id` (the visibility
   * of SearchGraph): by status (pending ones are listed only here and by id), naming one entity;
   * pending first, then the newest.
   */
  ListFacts(argument: _memoryd_v1_ListFactsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListFactsResponse__Output>): grpc.ClientUnaryCall;
  ListFacts(argument: _memoryd_v1_ListFactsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ListFactsResponse__Output>): grpc.ClientUnaryCall;
  ListFacts(argument: _memoryd_v1_ListFactsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListFactsResponse__Output>): grpc.ClientUnaryCall;
  ListFacts(argument: _memoryd_v1_ListFactsRequest, callback: grpc.requestCallback<_memoryd_v1_ListFactsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * ListFacts pages the facts the caller sees as `agent_id` serving `end_user_id` (the visibility
   * of SearchGraph): by status (pending ones are listed only here and by id), naming one entity;
   * pending first, then the newest.
   */
  listFacts(argument: _memoryd_v1_ListFactsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListFactsResponse__Output>): grpc.ClientUnaryCall;
  listFacts(argument: _memoryd_v1_ListFactsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ListFactsResponse__Output>): grpc.ClientUnaryCall;
  listFacts(argument: _memoryd_v1_ListFactsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListFactsResponse__Output>): grpc.ClientUnaryCall;
  listFacts(argument: _memoryd_v1_ListFactsRequest, callback: grpc.requestCallback<_memoryd_v1_ListFactsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * ListMergeSuggestions pages the open merge suggestions whose two entities the caller sees:
   * entities of one scope whose names came close (AssertFact's `possible_duplicates`, and those an
   * extraction met), with the evidence, the newest first. A suggestion stays until MergeEntities
   * folds one of its entities or DismissMergeSuggestion dismisses it.
   */
  ListMergeSuggestions(argument: _memoryd_v1_ListMergeSuggestionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListMergeSuggestionsResponse__Output>): grpc.ClientUnaryCall;
  ListMergeSuggestions(argument: _memoryd_v1_ListMergeSuggestionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ListMergeSuggestionsResponse__Output>): grpc.ClientUnaryCall;
  ListMergeSuggestions(argument: _memoryd_v1_ListMergeSuggestionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListMergeSuggestionsResponse__Output>): grpc.ClientUnaryCall;
  ListMergeSuggestions(argument: _memoryd_v1_ListMergeSuggestionsRequest, callback: grpc.requestCallback<_memoryd_v1_ListMergeSuggestionsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * ListMergeSuggestions pages the open merge suggestions whose two entities the caller sees:
   * entities of one scope whose names came close (AssertFact's `possible_duplicates`, and those an
   * extraction met), with the evidence, the newest first. A suggestion stays until MergeEntities
   * folds one of its entities or DismissMergeSuggestion dismisses it.
   */
  listMergeSuggestions(argument: _memoryd_v1_ListMergeSuggestionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListMergeSuggestionsResponse__Output>): grpc.ClientUnaryCall;
  listMergeSuggestions(argument: _memoryd_v1_ListMergeSuggestionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ListMergeSuggestionsResponse__Output>): grpc.ClientUnaryCall;
  listMergeSuggestions(argument: _memoryd_v1_ListMergeSuggestionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListMergeSuggestionsResponse__Output>): grpc.ClientUnaryCall;
  listMergeSuggestions(argument: _memoryd_v1_ListMergeSuggestionsRequest, callback: grpc.requestCallback<_memoryd_v1_ListMergeSuggestionsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * MergeEntities folds one entity into another of the same scope (FAILED_PRECONDITION naming
   * SCOPE_MISMATCH otherwise): its facts move, its name becomes an alias. The same merge again
   * (a retry) finishes one cut short and answers as done; a target merged away is refused.
   */
  MergeEntities(argument: _memoryd_v1_MergeEntitiesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_MergeEntitiesResponse__Output>): grpc.ClientUnaryCall;
  MergeEntities(argument: _memoryd_v1_MergeEntitiesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_MergeEntitiesResponse__Output>): grpc.ClientUnaryCall;
  MergeEntities(argument: _memoryd_v1_MergeEntitiesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_MergeEntitiesResponse__Output>): grpc.ClientUnaryCall;
  MergeEntities(argument: _memoryd_v1_MergeEntitiesRequest, callback: grpc.requestCallback<_memoryd_v1_MergeEntitiesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * MergeEntities folds one entity into another of the same scope (FAILED_PRECONDITION naming
   * SCOPE_MISMATCH otherwise): its facts move, its name becomes an alias. The same merge again
   * (a retry) finishes one cut short and answers as done; a target merged away is refused.
   */
  mergeEntities(argument: _memoryd_v1_MergeEntitiesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_MergeEntitiesResponse__Output>): grpc.ClientUnaryCall;
  mergeEntities(argument: _memoryd_v1_MergeEntitiesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_MergeEntitiesResponse__Output>): grpc.ClientUnaryCall;
  mergeEntities(argument: _memoryd_v1_MergeEntitiesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_MergeEntitiesResponse__Output>): grpc.ClientUnaryCall;
  mergeEntities(argument: _memoryd_v1_MergeEntitiesRequest, callback: grpc.requestCallback<_memoryd_v1_MergeEntitiesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * RenameEntity gives an entity a new name (the old one stays an alias). A name another active
   * entity of its scope holds is FAILED_PRECONDITION naming ENTITY_NAME_TAKEN: merge instead.
   */
  RenameEntity(argument: _memoryd_v1_RenameEntityRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RenameEntityResponse__Output>): grpc.ClientUnaryCall;
  RenameEntity(argument: _memoryd_v1_RenameEntityRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_RenameEntityResponse__Output>): grpc.ClientUnaryCall;
  RenameEntity(argument: _memoryd_v1_RenameEntityRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RenameEntityResponse__Output>): grpc.ClientUnaryCall;
  RenameEntity(argument: _memoryd_v1_RenameEntityRequest, callback: grpc.requestCallback<_memoryd_v1_RenameEntityResponse__Output>): grpc.ClientUnaryCall;
  /**
   * RenameEntity gives an entity a new name (the old one stays an alias). A name another active
   * entity of its scope holds is FAILED_PRECONDITION naming ENTITY_NAME_TAKEN: merge instead.
   */
  renameEntity(argument: _memoryd_v1_RenameEntityRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RenameEntityResponse__Output>): grpc.ClientUnaryCall;
  renameEntity(argument: _memoryd_v1_RenameEntityRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_RenameEntityResponse__Output>): grpc.ClientUnaryCall;
  renameEntity(argument: _memoryd_v1_RenameEntityRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RenameEntityResponse__Output>): grpc.ClientUnaryCall;
  renameEntity(argument: _memoryd_v1_RenameEntityRequest, callback: grpc.requestCallback<_memoryd_v1_RenameEntityResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * SearchGraph returns the facts valid at `as_of` (default now) for the query — hybrid seeds over
   * fact sentences and entity names, a k-hop expansion, a blended rerank — and the exact prompt
   * block the agent would see: `# Memory graph (as of <date>)` and one dated line per fact, within
   * `budget_tokens` (counted like profiles, o200k).
   */
  SearchGraph(argument: _memoryd_v1_SearchGraphRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_SearchGraphResponse__Output>): grpc.ClientUnaryCall;
  SearchGraph(argument: _memoryd_v1_SearchGraphRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_SearchGraphResponse__Output>): grpc.ClientUnaryCall;
  SearchGraph(argument: _memoryd_v1_SearchGraphRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_SearchGraphResponse__Output>): grpc.ClientUnaryCall;
  SearchGraph(argument: _memoryd_v1_SearchGraphRequest, callback: grpc.requestCallback<_memoryd_v1_SearchGraphResponse__Output>): grpc.ClientUnaryCall;
  /**
   * SearchGraph returns the facts valid at `as_of` (default now) for the query — hybrid seeds over
   * fact sentences and entity names, a k-hop expansion, a blended rerank — and the exact prompt
   * block the agent would see: `# Memory graph (as of <date>)` and one dated line per fact, within
   * `budget_tokens` (counted like profiles, o200k).
   */
  searchGraph(argument: _memoryd_v1_SearchGraphRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_SearchGraphResponse__Output>): grpc.ClientUnaryCall;
  searchGraph(argument: _memoryd_v1_SearchGraphRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_SearchGraphResponse__Output>): grpc.ClientUnaryCall;
  searchGraph(argument: _memoryd_v1_SearchGraphRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_SearchGraphResponse__Output>): grpc.ClientUnaryCall;
  searchGraph(argument: _memoryd_v1_SearchGraphRequest, callback: grpc.requestCallback<_memoryd_v1_SearchGraphResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * UnmergeEntity undoes the MergeEntities that folded `entity_id` away: the facts that merge moved
   * go back to it and its names leave the target's aliases; facts written since stay where they
   * were written, and the pair is kept as a dismissed merge suggestion. Merges undo in the reverse
   * order they were made (FAILED_PRECONDITION naming TARGET_MERGED otherwise); an entity no merge
   * folded, or one merged before merges were recorded, is FAILED_PRECONDITION. Calling it again
   * finishes an undo cut short.
   */
  UnmergeEntity(argument: _memoryd_v1_UnmergeEntityRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_UnmergeEntityResponse__Output>): grpc.ClientUnaryCall;
  UnmergeEntity(argument: _memoryd_v1_UnmergeEntityRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_UnmergeEntityResponse__Output>): grpc.ClientUnaryCall;
  UnmergeEntity(argument: _memoryd_v1_UnmergeEntityRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_UnmergeEntityResponse__Output>): grpc.ClientUnaryCall;
  UnmergeEntity(argument: _memoryd_v1_UnmergeEntityRequest, callback: grpc.requestCallback<_memoryd_v1_UnmergeEntityResponse__Output>): grpc.ClientUnaryCall;
  /**
   * UnmergeEntity undoes the MergeEntities that folded `entity_id` away: the facts that merge moved
   * go back to it and its names leave the target's aliases; facts written since stay where they
   * were written, and the pair is kept as a dismissed merge suggestion. Merges undo in the reverse
   * order they were made (FAILED_PRECONDITION naming TARGET_MERGED otherwise); an entity no merge
   * folded, or one merged before merges were recorded, is FAILED_PRECONDITION. Calling it again
   * finishes an undo cut short.
   */
  unmergeEntity(argument: _memoryd_v1_UnmergeEntityRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_UnmergeEntityResponse__Output>): grpc.ClientUnaryCall;
  unmergeEntity(argument: _memoryd_v1_UnmergeEntityRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_UnmergeEntityResponse__Output>): grpc.ClientUnaryCall;
  unmergeEntity(argument: _memoryd_v1_UnmergeEntityRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_UnmergeEntityResponse__Output>): grpc.ClientUnaryCall;
  unmergeEntity(argument: _memoryd_v1_UnmergeEntityRequest, callback: grpc.requestCallback<_memoryd_v1_UnmergeEntityResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * UpdateFact ends a fact (`valid_to`), approves a pending one or invalidates one (`status`), or
   * pins it. History is kept.
   */
  UpdateFact(argument: _memoryd_v1_UpdateFactRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_UpdateFactResponse__Output>): grpc.ClientUnaryCall;
  UpdateFact(argument: _memoryd_v1_UpdateFactRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_UpdateFactResponse__Output>): grpc.ClientUnaryCall;
  UpdateFact(argument: _memoryd_v1_UpdateFactRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_UpdateFactResponse__Output>): grpc.ClientUnaryCall;
  UpdateFact(argument: _memoryd_v1_UpdateFactRequest, callback: grpc.requestCallback<_memoryd_v1_UpdateFactResponse__Output>): grpc.ClientUnaryCall;
  /**
   * UpdateFact ends a fact (`valid_to`), approves a pending one or invalidates one (`status`), or
   * pins it. History is kept.
   */
  updateFact(argument: _memoryd_v1_UpdateFactRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_UpdateFactResponse__Output>): grpc.ClientUnaryCall;
  updateFact(argument: _memoryd_v1_UpdateFactRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_UpdateFactResponse__Output>): grpc.ClientUnaryCall;
  updateFact(argument: _memoryd_v1_UpdateFactRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_UpdateFactResponse__Output>): grpc.ClientUnaryCall;
  updateFact(argument: _memoryd_v1_UpdateFactRequest, callback: grpc.requestCallback<_memoryd_v1_UpdateFactResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * GraphService searches and curates the graph. SearchGraph and ExplainFact: any key; the rest:
 * the admin role (the audit log records scopes and ids, never a fact's text).
 */
export interface GraphServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * AssertFact records a person's fact (its own human episode), creating entities as needed and
   * invalidating what it contradicts.
   */
  AssertFact: grpc.handleUnaryCall<_memoryd_v1_AssertFactRequest__Output, _memoryd_v1_AssertFactResponse>;
  
  /**
   * DismissMergeSuggestion records that the two entities are different (kept dismissed: the pair
   * is not suggested again). Admin keys, as MergeEntities.
   */
  DismissMergeSuggestion: grpc.handleUnaryCall<_memoryd_v1_DismissMergeSuggestionRequest__Output, _memoryd_v1_DismissMergeSuggestionResponse>;
  
  /**
   * ExplainFact shows a visible fact's history: what it superseded and what superseded it.
   */
  ExplainFact: grpc.handleUnaryCall<_memoryd_v1_ExplainFactRequest__Output, _memoryd_v1_ExplainFactResponse>;
  
  /**
   * ForgetFact deletes one fact: the administrator's compliance delete (nothing else deletes).
   */
  ForgetFact: grpc.handleUnaryCall<_memoryd_v1_ForgetFactRequest__Output, _memoryd_v1_ForgetFactResponse>;
  
  /**
   * GetEntity returns an entity the caller sees and the memories that annotate it (a memory's
   * `source_id` may name a graph entity as well as a memory): the first 100 the caller sees, oldest
   * first; ListMemories with `filter.source_id` pages through all.
   */
  GetEntity: grpc.handleUnaryCall<_memoryd_v1_GetEntityRequest__Output, _memoryd_v1_GetEntityResponse>;
  
  /**
   * ListEntities pages the entities the caller sees that no merge folded away (`merged`: those
   * one did), by name.
   */
  ListEntities: grpc.handleUnaryCall<_memoryd_v1_ListEntitiesRequest__Output, _memoryd_v1_ListEntitiesResponse>;
  
  /**
   * ListEpisodes pages the episodes the caller sees (each extraction of a conversation, each
   * person's assertion: where facts came from), the newest first.
   */
  ListEpisodes: grpc.handleUnaryCall<_memoryd_v1_ListEpisodesRequest__Output, _memoryd_v1_ListEpisodesResponse>;
  
  /**
   * ListFacts pages the facts the caller sees as `agent_id` serving `end_user_id` (the visibility
   * of SearchGraph): by status (pending ones are listed only here and by id), naming one entity;
   * pending first, then the newest.
   */
  ListFacts: grpc.handleUnaryCall<_memoryd_v1_ListFactsRequest__Output, _memoryd_v1_ListFactsResponse>;
  
  /**
   * ListMergeSuggestions pages the open merge suggestions whose two entities the caller sees:
   * entities of one scope whose names came close (AssertFact's `possible_duplicates`, and those an
   * extraction met), with the evidence, the newest first. A suggestion stays until MergeEntities
   * folds one of its entities or DismissMergeSuggestion dismisses it.
   */
  ListMergeSuggestions: grpc.handleUnaryCall<_memoryd_v1_ListMergeSuggestionsRequest__Output, _memoryd_v1_ListMergeSuggestionsResponse>;
  
  /**
   * MergeEntities folds one entity into another of the same scope (FAILED_PRECONDITION naming
   * SCOPE_MISMATCH otherwise): its facts move, its name becomes an alias. The same merge again
   * (a retry) finishes one cut short and answers as done; a target merged away is refused.
   */
  MergeEntities: grpc.handleUnaryCall<_memoryd_v1_MergeEntitiesRequest__Output, _memoryd_v1_MergeEntitiesResponse>;
  
  /**
   * RenameEntity gives an entity a new name (the old one stays an alias). A name another active
   * entity of its scope holds is FAILED_PRECONDITION naming ENTITY_NAME_TAKEN: merge instead.
   */
  RenameEntity: grpc.handleUnaryCall<_memoryd_v1_RenameEntityRequest__Output, _memoryd_v1_RenameEntityResponse>;
  
  /**
   * SearchGraph returns the facts valid at `as_of` (default now) for the query — hybrid seeds over
   * fact sentences and entity names, a k-hop expansion, a blended rerank — and the exact prompt
   * block the agent would see: `# Memory graph (as of <date>)` and one dated line per fact, within
   * `budget_tokens` (counted like profiles, o200k).
   */
  SearchGraph: grpc.handleUnaryCall<_memoryd_v1_SearchGraphRequest__Output, _memoryd_v1_SearchGraphResponse>;
  
  /**
   * UnmergeEntity undoes the MergeEntities that folded `entity_id` away: the facts that merge moved
   * go back to it and its names leave the target's aliases; facts written since stay where they
   * were written, and the pair is kept as a dismissed merge suggestion. Merges undo in the reverse
   * order they were made (FAILED_PRECONDITION naming TARGET_MERGED otherwise); an entity no merge
   * folded, or one merged before merges were recorded, is FAILED_PRECONDITION. Calling it again
   * finishes an undo cut short.
   */
  UnmergeEntity: grpc.handleUnaryCall<_memoryd_v1_UnmergeEntityRequest__Output, _memoryd_v1_UnmergeEntityResponse>;
  
  /**
   * UpdateFact ends a fact (`valid_to`), approves a pending one or invalidates one (`status`), or
   * pins it. History is kept.
   */
  UpdateFact: grpc.handleUnaryCall<_memoryd_v1_UpdateFactRequest__Output, _memoryd_v1_UpdateFactResponse>;
  
}

export interface GraphServiceDefinition extends grpc.ServiceDefinition {
  AssertFact: MethodDefinition<_memoryd_v1_AssertFactRequest, _memoryd_v1_AssertFactResponse, _memoryd_v1_AssertFactRequest__Output, _memoryd_v1_AssertFactResponse__Output>
  DismissMergeSuggestion: MethodDefinition<_memoryd_v1_DismissMergeSuggestionRequest, _memoryd_v1_DismissMergeSuggestionResponse, _memoryd_v1_DismissMergeSuggestionRequest__Output, _memoryd_v1_DismissMergeSuggestionResponse__Output>
  ExplainFact: MethodDefinition<_memoryd_v1_ExplainFactRequest, _memoryd_v1_ExplainFactResponse, _memoryd_v1_ExplainFactRequest__Output, _memoryd_v1_ExplainFactResponse__Output>
  ForgetFact: MethodDefinition<_memoryd_v1_ForgetFactRequest, _memoryd_v1_ForgetFactResponse, _memoryd_v1_ForgetFactRequest__Output, _memoryd_v1_ForgetFactResponse__Output>
  GetEntity: MethodDefinition<_memoryd_v1_GetEntityRequest, _memoryd_v1_GetEntityResponse, _memoryd_v1_GetEntityRequest__Output, _memoryd_v1_GetEntityResponse__Output>
  ListEntities: MethodDefinition<_memoryd_v1_ListEntitiesRequest, _memoryd_v1_ListEntitiesResponse, _memoryd_v1_ListEntitiesRequest__Output, _memoryd_v1_ListEntitiesResponse__Output>
  ListEpisodes: MethodDefinition<_memoryd_v1_ListEpisodesRequest, _memoryd_v1_ListEpisodesResponse, _memoryd_v1_ListEpisodesRequest__Output, _memoryd_v1_ListEpisodesResponse__Output>
  ListFacts: MethodDefinition<_memoryd_v1_ListFactsRequest, _memoryd_v1_ListFactsResponse, _memoryd_v1_ListFactsRequest__Output, _memoryd_v1_ListFactsResponse__Output>
  ListMergeSuggestions: MethodDefinition<_memoryd_v1_ListMergeSuggestionsRequest, _memoryd_v1_ListMergeSuggestionsResponse, _memoryd_v1_ListMergeSuggestionsRequest__Output, _memoryd_v1_ListMergeSuggestionsResponse__Output>
  MergeEntities: MethodDefinition<_memoryd_v1_MergeEntitiesRequest, _memoryd_v1_MergeEntitiesResponse, _memoryd_v1_MergeEntitiesRequest__Output, _memoryd_v1_MergeEntitiesResponse__Output>
  RenameEntity: MethodDefinition<_memoryd_v1_RenameEntityRequest, _memoryd_v1_RenameEntityResponse, _memoryd_v1_RenameEntityRequest__Output, _memoryd_v1_RenameEntityResponse__Output>
  SearchGraph: MethodDefinition<_memoryd_v1_SearchGraphRequest, _memoryd_v1_SearchGraphResponse, _memoryd_v1_SearchGraphRequest__Output, _memoryd_v1_SearchGraphResponse__Output>
  UnmergeEntity: MethodDefinition<_memoryd_v1_UnmergeEntityRequest, _memoryd_v1_UnmergeEntityResponse, _memoryd_v1_UnmergeEntityRequest__Output, _memoryd_v1_UnmergeEntityResponse__Output>
  UpdateFact: MethodDefinition<_memoryd_v1_UpdateFactRequest, _memoryd_v1_UpdateFactResponse, _memoryd_v1_UpdateFactRequest__Output, _memoryd_v1_UpdateFactResponse__Output>
}
