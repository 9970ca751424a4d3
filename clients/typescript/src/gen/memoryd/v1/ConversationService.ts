// Original file: ../../proto/memoryd/v1/conversation.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AppendMessagesRequest as _memoryd_v1_AppendMessagesRequest, AppendMessagesRequest__Output as _memoryd_v1_AppendMessagesRequest__Output } from '../../memoryd/v1/AppendMessagesRequest';
import type { AppendMessagesResponse as _memoryd_v1_AppendMessagesResponse, AppendMessagesResponse__Output as _memoryd_v1_AppendMessagesResponse__Output } from '../../memoryd/v1/AppendMessagesResponse';
import type { CompactRequest as _memoryd_v1_CompactRequest, CompactRequest__Output as _memoryd_v1_CompactRequest__Output } from '../../memoryd/v1/CompactRequest';
import type { CompactResponse as _memoryd_v1_CompactResponse, CompactResponse__Output as _memoryd_v1_CompactResponse__Output } from '../../memoryd/v1/CompactResponse';
import type { EndSessionRequest as _memoryd_v1_EndSessionRequest, EndSessionRequest__Output as _memoryd_v1_EndSessionRequest__Output } from '../../memoryd/v1/EndSessionRequest';
import type { EndSessionResponse as _memoryd_v1_EndSessionResponse, EndSessionResponse__Output as _memoryd_v1_EndSessionResponse__Output } from '../../memoryd/v1/EndSessionResponse';
import type { GetContextRequest as _memoryd_v1_GetContextRequest, GetContextRequest__Output as _memoryd_v1_GetContextRequest__Output } from '../../memoryd/v1/GetContextRequest';
import type { GetContextResponse as _memoryd_v1_GetContextResponse, GetContextResponse__Output as _memoryd_v1_GetContextResponse__Output } from '../../memoryd/v1/GetContextResponse';
import type { ListConversationsRequest as _memoryd_v1_ListConversationsRequest, ListConversationsRequest__Output as _memoryd_v1_ListConversationsRequest__Output } from '../../memoryd/v1/ListConversationsRequest';
import type { ListConversationsResponse as _memoryd_v1_ListConversationsResponse, ListConversationsResponse__Output as _memoryd_v1_ListConversationsResponse__Output } from '../../memoryd/v1/ListConversationsResponse';
import type { WatchConversationRequest as _memoryd_v1_WatchConversationRequest, WatchConversationRequest__Output as _memoryd_v1_WatchConversationRequest__Output } from '../../memoryd/v1/WatchConversationRequest';
import type { WatchConversationResponse as _memoryd_v1_WatchConversationResponse, WatchConversationResponse__Output as _memoryd_v1_WatchConversationResponse__Output } from '../../memoryd/v1/WatchConversationResponse';

/**
 * ConversationService keeps conversations and assembles their context.
 */
export interface ConversationServiceClient extends grpc.Client {
  /**
   * AppendMessages adds messages in order. Idempotent per client `message_id`: a
   * retried append does not double a message. Returns each message's seq and the
   * compaction job queued when the threshold was crossed. Conversation ids are
   * unique per tenant: ALREADY_EXISTS naming `conversation_id` when another agent
   * or contact holds the id. NOT_FOUND when the conversation was erased
   * (EraseEndUser, retention) while the messages were being written: none of them
   * is kept.
   */
  AppendMessages(argument: _memoryd_v1_AppendMessagesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_AppendMessagesResponse__Output>): grpc.ClientUnaryCall;
  AppendMessages(argument: _memoryd_v1_AppendMessagesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_AppendMessagesResponse__Output>): grpc.ClientUnaryCall;
  AppendMessages(argument: _memoryd_v1_AppendMessagesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_AppendMessagesResponse__Output>): grpc.ClientUnaryCall;
  AppendMessages(argument: _memoryd_v1_AppendMessagesRequest, callback: grpc.requestCallback<_memoryd_v1_AppendMessagesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * AppendMessages adds messages in order. Idempotent per client `message_id`: a
   * retried append does not double a message. Returns each message's seq and the
   * compaction job queued when the threshold was crossed. Conversation ids are
   * unique per tenant: ALREADY_EXISTS naming `conversation_id` when another agent
   * or contact holds the id. NOT_FOUND when the conversation was erased
   * (EraseEndUser, retention) while the messages were being written: none of them
   * is kept.
   */
  appendMessages(argument: _memoryd_v1_AppendMessagesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_AppendMessagesResponse__Output>): grpc.ClientUnaryCall;
  appendMessages(argument: _memoryd_v1_AppendMessagesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_AppendMessagesResponse__Output>): grpc.ClientUnaryCall;
  appendMessages(argument: _memoryd_v1_AppendMessagesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_AppendMessagesResponse__Output>): grpc.ClientUnaryCall;
  appendMessages(argument: _memoryd_v1_AppendMessagesRequest, callback: grpc.requestCallback<_memoryd_v1_AppendMessagesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Compact queues a compaction now, whatever the threshold (a job; follow it with
   * WatchConversation or JobService.WatchJob). UNAVAILABLE without a job queue.
   */
  Compact(argument: _memoryd_v1_CompactRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_CompactResponse__Output>): grpc.ClientUnaryCall;
  Compact(argument: _memoryd_v1_CompactRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_CompactResponse__Output>): grpc.ClientUnaryCall;
  Compact(argument: _memoryd_v1_CompactRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_CompactResponse__Output>): grpc.ClientUnaryCall;
  Compact(argument: _memoryd_v1_CompactRequest, callback: grpc.requestCallback<_memoryd_v1_CompactResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Compact queues a compaction now, whatever the threshold (a job; follow it with
   * WatchConversation or JobService.WatchJob). UNAVAILABLE without a job queue.
   */
  compact(argument: _memoryd_v1_CompactRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_CompactResponse__Output>): grpc.ClientUnaryCall;
  compact(argument: _memoryd_v1_CompactRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_CompactResponse__Output>): grpc.ClientUnaryCall;
  compact(argument: _memoryd_v1_CompactRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_CompactResponse__Output>): grpc.ClientUnaryCall;
  compact(argument: _memoryd_v1_CompactRequest, callback: grpc.requestCallback<_memoryd_v1_CompactResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * EndSession says the session is over: a job summarises the whole raw tail and files
   * everything not yet filed per the agent's `working.storage_scope` (what `batch_size = 0`
   * holds back until now). The conversation stays open: later appends start a new stretch.
   * Idempotent per conversation state (the same state gives the same job). UNAVAILABLE
   * without a job queue.
   */
  EndSession(argument: _memoryd_v1_EndSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_EndSessionResponse__Output>): grpc.ClientUnaryCall;
  EndSession(argument: _memoryd_v1_EndSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_EndSessionResponse__Output>): grpc.ClientUnaryCall;
  EndSession(argument: _memoryd_v1_EndSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_EndSessionResponse__Output>): grpc.ClientUnaryCall;
  EndSession(argument: _memoryd_v1_EndSessionRequest, callback: grpc.requestCallback<_memoryd_v1_EndSessionResponse__Output>): grpc.ClientUnaryCall;
  /**
   * EndSession says the session is over: a job summarises the whole raw tail and files
   * everything not yet filed per the agent's `working.storage_scope` (what `batch_size = 0`
   * holds back until now). The conversation stays open: later appends start a new stretch.
   * Idempotent per conversation state (the same state gives the same job). UNAVAILABLE
   * without a job queue.
   */
  endSession(argument: _memoryd_v1_EndSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_EndSessionResponse__Output>): grpc.ClientUnaryCall;
  endSession(argument: _memoryd_v1_EndSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_EndSessionResponse__Output>): grpc.ClientUnaryCall;
  endSession(argument: _memoryd_v1_EndSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_EndSessionResponse__Output>): grpc.ClientUnaryCall;
  endSession(argument: _memoryd_v1_EndSessionRequest, callback: grpc.requestCallback<_memoryd_v1_EndSessionResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GetContext returns the messages to send the model, in order, with token counts;
   * the total never exceeds `context_window_tokens`.
   */
  GetContext(argument: _memoryd_v1_GetContextRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetContextResponse__Output>): grpc.ClientUnaryCall;
  GetContext(argument: _memoryd_v1_GetContextRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_GetContextResponse__Output>): grpc.ClientUnaryCall;
  GetContext(argument: _memoryd_v1_GetContextRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetContextResponse__Output>): grpc.ClientUnaryCall;
  GetContext(argument: _memoryd_v1_GetContextRequest, callback: grpc.requestCallback<_memoryd_v1_GetContextResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GetContext returns the messages to send the model, in order, with token counts;
   * the total never exceeds `context_window_tokens`.
   */
  getContext(argument: _memoryd_v1_GetContextRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetContextResponse__Output>): grpc.ClientUnaryCall;
  getContext(argument: _memoryd_v1_GetContextRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_GetContextResponse__Output>): grpc.ClientUnaryCall;
  getContext(argument: _memoryd_v1_GetContextRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetContextResponse__Output>): grpc.ClientUnaryCall;
  getContext(argument: _memoryd_v1_GetContextRequest, callback: grpc.requestCallback<_memoryd_v1_GetContextResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * ListConversations pages through the agent's conversations with the contact (none given: those
   * with no contact), the most recently updated first. `all_contacts` lists every contact's
   * (operator keys; PERMISSION_DENIED otherwise).
   */
  ListConversations(argument: _memoryd_v1_ListConversationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListConversationsResponse__Output>): grpc.ClientUnaryCall;
  ListConversations(argument: _memoryd_v1_ListConversationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ListConversationsResponse__Output>): grpc.ClientUnaryCall;
  ListConversations(argument: _memoryd_v1_ListConversationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListConversationsResponse__Output>): grpc.ClientUnaryCall;
  ListConversations(argument: _memoryd_v1_ListConversationsRequest, callback: grpc.requestCallback<_memoryd_v1_ListConversationsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * ListConversations pages through the agent's conversations with the contact (none given: those
   * with no contact), the most recently updated first. `all_contacts` lists every contact's
   * (operator keys; PERMISSION_DENIED otherwise).
   */
  listConversations(argument: _memoryd_v1_ListConversationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListConversationsResponse__Output>): grpc.ClientUnaryCall;
  listConversations(argument: _memoryd_v1_ListConversationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ListConversationsResponse__Output>): grpc.ClientUnaryCall;
  listConversations(argument: _memoryd_v1_ListConversationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListConversationsResponse__Output>): grpc.ClientUnaryCall;
  listConversations(argument: _memoryd_v1_ListConversationsRequest, callback: grpc.requestCallback<_memoryd_v1_ListConversationsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * WatchConversation streams compaction events (started, finished, failed with the
   * error) until the caller cancels; `from_start` replays the persisted ones first.
   * The initial metadata arrives once the watch is live (an action taken after it is
   * seen). Each key holds at most `auth.streams_per_key` Watch streams open on one
   * daemon (RESOURCE_EXHAUSTED beyond; close one first). An event stamped up to a minute
   * before the newest one sent (another worker's clock) is still sent when it commits.
   */
  WatchConversation(argument: _memoryd_v1_WatchConversationRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_memoryd_v1_WatchConversationResponse__Output>;
  WatchConversation(argument: _memoryd_v1_WatchConversationRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_memoryd_v1_WatchConversationResponse__Output>;
  /**
   * WatchConversation streams compaction events (started, finished, failed with the
   * error) until the caller cancels; `from_start` replays the persisted ones first.
   * The initial metadata arrives once the watch is live (an action taken after it is
   * seen). Each key holds at most `auth.streams_per_key` Watch streams open on one
   * daemon (RESOURCE_EXHAUSTED beyond; close one first). An event stamped up to a minute
   * before the newest one sent (another worker's clock) is still sent when it commits.
   */
  watchConversation(argument: _memoryd_v1_WatchConversationRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_memoryd_v1_WatchConversationResponse__Output>;
  watchConversation(argument: _memoryd_v1_WatchConversationRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_memoryd_v1_WatchConversationResponse__Output>;
  
}

/**
 * ConversationService keeps conversations and assembles their context.
 */
export interface ConversationServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * AppendMessages adds messages in order. Idempotent per client `message_id`: a
   * retried append does not double a message. Returns each message's seq and the
   * compaction job queued when the threshold was crossed. Conversation ids are
   * unique per tenant: ALREADY_EXISTS naming `conversation_id` when another agent
   * or contact holds the id. NOT_FOUND when the conversation was erased
   * (EraseEndUser, retention) while the messages were being written: none of them
   * is kept.
   */
  AppendMessages: grpc.handleUnaryCall<_memoryd_v1_AppendMessagesRequest__Output, _memoryd_v1_AppendMessagesResponse>;
  
  /**
   * Compact queues a compaction now, whatever the threshold (a job; follow it with
   * WatchConversation or JobService.WatchJob). UNAVAILABLE without a job queue.
   */
  Compact: grpc.handleUnaryCall<_memoryd_v1_CompactRequest__Output, _memoryd_v1_CompactResponse>;
  
  /**
   * EndSession says the session is over: a job summarises the whole raw tail and files
   * everything not yet filed per the agent's `working.storage_scope` (what `batch_size = 0`
   * holds back until now). The conversation stays open: later appends start a new stretch.
   * Idempotent per conversation state (the same state gives the same job). UNAVAILABLE
   * without a job queue.
   */
  EndSession: grpc.handleUnaryCall<_memoryd_v1_EndSessionRequest__Output, _memoryd_v1_EndSessionResponse>;
  
  /**
   * GetContext returns the messages to send the model, in order, with token counts;
   * the total never exceeds `context_window_tokens`.
   */
  GetContext: grpc.handleUnaryCall<_memoryd_v1_GetContextRequest__Output, _memoryd_v1_GetContextResponse>;
  
  /**
   * ListConversations pages through the agent's conversations with the contact (none given: those
   * with no contact), the most recently updated first. `all_contacts` lists every contact's
   * (operator keys; PERMISSION_DENIED otherwise).
   */
  ListConversations: grpc.handleUnaryCall<_memoryd_v1_ListConversationsRequest__Output, _memoryd_v1_ListConversationsResponse>;
  
  /**
   * WatchConversation streams compaction events (started, finished, failed with the
   * error) until the caller cancels; `from_start` replays the persisted ones first.
   * The initial metadata arrives once the watch is live (an action taken after it is
   * seen). Each key holds at most `auth.streams_per_key` Watch streams open on one
   * daemon (RESOURCE_EXHAUSTED beyond; close one first). An event stamped up to a minute
   * before the newest one sent (another worker's clock) is still sent when it commits.
   */
  WatchConversation: grpc.handleServerStreamingCall<_memoryd_v1_WatchConversationRequest__Output, _memoryd_v1_WatchConversationResponse>;
  
}

export interface ConversationServiceDefinition extends grpc.ServiceDefinition {
  AppendMessages: MethodDefinition<_memoryd_v1_AppendMessagesRequest, _memoryd_v1_AppendMessagesResponse, _memoryd_v1_AppendMessagesRequest__Output, _memoryd_v1_AppendMessagesResponse__Output>
  Compact: MethodDefinition<_memoryd_v1_CompactRequest, _memoryd_v1_CompactResponse, _memoryd_v1_CompactRequest__Output, _memoryd_v1_CompactResponse__Output>
  EndSession: MethodDefinition<_memoryd_v1_EndSessionRequest, _memoryd_v1_EndSessionResponse, _memoryd_v1_EndSessionRequest__Output, _memoryd_v1_EndSessionResponse__Output>
  GetContext: MethodDefinition<_memoryd_v1_GetContextRequest, _memoryd_v1_GetContextResponse, _memoryd_v1_GetContextRequest__Output, _memoryd_v1_GetContextResponse__Output>
  ListConversations: MethodDefinition<_memoryd_v1_ListConversationsRequest, _memoryd_v1_ListConversationsResponse, _memoryd_v1_ListConversationsRequest__Output, _memoryd_v1_ListConversationsResponse__Output>
  WatchConversation: MethodDefinition<_memoryd_v1_WatchConversationRequest, _memoryd_v1_WatchConversationResponse, _memoryd_v1_WatchConversationRequest__Output, _memoryd_v1_WatchConversationResponse__Output>
}
