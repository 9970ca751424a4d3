import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from './google/protobuf/Timestamp';
import type { AppendMessagesRequest as _memoryd_v1_AppendMessagesRequest, AppendMessagesRequest__Output as _memoryd_v1_AppendMessagesRequest__Output } from './memoryd/v1/AppendMessagesRequest';
import type { AppendMessagesResponse as _memoryd_v1_AppendMessagesResponse, AppendMessagesResponse__Output as _memoryd_v1_AppendMessagesResponse__Output } from './memoryd/v1/AppendMessagesResponse';
import type { CompactRequest as _memoryd_v1_CompactRequest, CompactRequest__Output as _memoryd_v1_CompactRequest__Output } from './memoryd/v1/CompactRequest';
import type { CompactResponse as _memoryd_v1_CompactResponse, CompactResponse__Output as _memoryd_v1_CompactResponse__Output } from './memoryd/v1/CompactResponse';
import type { ContextMessage as _memoryd_v1_ContextMessage, ContextMessage__Output as _memoryd_v1_ContextMessage__Output } from './memoryd/v1/ContextMessage';
import type { ConversationEvent as _memoryd_v1_ConversationEvent, ConversationEvent__Output as _memoryd_v1_ConversationEvent__Output } from './memoryd/v1/ConversationEvent';
import type { ConversationOptions as _memoryd_v1_ConversationOptions, ConversationOptions__Output as _memoryd_v1_ConversationOptions__Output } from './memoryd/v1/ConversationOptions';
import type { ConversationServiceClient as _memoryd_v1_ConversationServiceClient, ConversationServiceDefinition as _memoryd_v1_ConversationServiceDefinition } from './memoryd/v1/ConversationService';
import type { ConversationSummary as _memoryd_v1_ConversationSummary, ConversationSummary__Output as _memoryd_v1_ConversationSummary__Output } from './memoryd/v1/ConversationSummary';
import type { EndSessionRequest as _memoryd_v1_EndSessionRequest, EndSessionRequest__Output as _memoryd_v1_EndSessionRequest__Output } from './memoryd/v1/EndSessionRequest';
import type { EndSessionResponse as _memoryd_v1_EndSessionResponse, EndSessionResponse__Output as _memoryd_v1_EndSessionResponse__Output } from './memoryd/v1/EndSessionResponse';
import type { GetContextRequest as _memoryd_v1_GetContextRequest, GetContextRequest__Output as _memoryd_v1_GetContextRequest__Output } from './memoryd/v1/GetContextRequest';
import type { GetContextResponse as _memoryd_v1_GetContextResponse, GetContextResponse__Output as _memoryd_v1_GetContextResponse__Output } from './memoryd/v1/GetContextResponse';
import type { ListConversationsRequest as _memoryd_v1_ListConversationsRequest, ListConversationsRequest__Output as _memoryd_v1_ListConversationsRequest__Output } from './memoryd/v1/ListConversationsRequest';
import type { ListConversationsResponse as _memoryd_v1_ListConversationsResponse, ListConversationsResponse__Output as _memoryd_v1_ListConversationsResponse__Output } from './memoryd/v1/ListConversationsResponse';
import type { MessageInput as _memoryd_v1_MessageInput, MessageInput__Output as _memoryd_v1_MessageInput__Output } from './memoryd/v1/MessageInput';
import type { WatchConversationRequest as _memoryd_v1_WatchConversationRequest, WatchConversationRequest__Output as _memoryd_v1_WatchConversationRequest__Output } from './memoryd/v1/WatchConversationRequest';
import type { WatchConversationResponse as _memoryd_v1_WatchConversationResponse, WatchConversationResponse__Output as _memoryd_v1_WatchConversationResponse__Output } from './memoryd/v1/WatchConversationResponse';

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
      AppendMessagesRequest: MessageTypeDefinition<_memoryd_v1_AppendMessagesRequest, _memoryd_v1_AppendMessagesRequest__Output>
      AppendMessagesResponse: MessageTypeDefinition<_memoryd_v1_AppendMessagesResponse, _memoryd_v1_AppendMessagesResponse__Output>
      CompactRequest: MessageTypeDefinition<_memoryd_v1_CompactRequest, _memoryd_v1_CompactRequest__Output>
      CompactResponse: MessageTypeDefinition<_memoryd_v1_CompactResponse, _memoryd_v1_CompactResponse__Output>
      ContextMessage: MessageTypeDefinition<_memoryd_v1_ContextMessage, _memoryd_v1_ContextMessage__Output>
      ConversationEvent: MessageTypeDefinition<_memoryd_v1_ConversationEvent, _memoryd_v1_ConversationEvent__Output>
      ConversationOptions: MessageTypeDefinition<_memoryd_v1_ConversationOptions, _memoryd_v1_ConversationOptions__Output>
      /**
       * ConversationService keeps conversations and assembles their context.
       */
      ConversationService: SubtypeConstructor<typeof grpc.Client, _memoryd_v1_ConversationServiceClient> & { service: _memoryd_v1_ConversationServiceDefinition }
      ConversationSummary: MessageTypeDefinition<_memoryd_v1_ConversationSummary, _memoryd_v1_ConversationSummary__Output>
      EndSessionRequest: MessageTypeDefinition<_memoryd_v1_EndSessionRequest, _memoryd_v1_EndSessionRequest__Output>
      EndSessionResponse: MessageTypeDefinition<_memoryd_v1_EndSessionResponse, _memoryd_v1_EndSessionResponse__Output>
      GetContextRequest: MessageTypeDefinition<_memoryd_v1_GetContextRequest, _memoryd_v1_GetContextRequest__Output>
      GetContextResponse: MessageTypeDefinition<_memoryd_v1_GetContextResponse, _memoryd_v1_GetContextResponse__Output>
      ListConversationsRequest: MessageTypeDefinition<_memoryd_v1_ListConversationsRequest, _memoryd_v1_ListConversationsRequest__Output>
      ListConversationsResponse: MessageTypeDefinition<_memoryd_v1_ListConversationsResponse, _memoryd_v1_ListConversationsResponse__Output>
      MessageInput: MessageTypeDefinition<_memoryd_v1_MessageInput, _memoryd_v1_MessageInput__Output>
      Role: EnumTypeDefinition
      StorageScope: EnumTypeDefinition
      Strategy: EnumTypeDefinition
      WatchConversationRequest: MessageTypeDefinition<_memoryd_v1_WatchConversationRequest, _memoryd_v1_WatchConversationRequest__Output>
      WatchConversationResponse: MessageTypeDefinition<_memoryd_v1_WatchConversationResponse, _memoryd_v1_WatchConversationResponse__Output>
    }
  }
}

