import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from './google/protobuf/Timestamp';
import type { ApiKey as _memoryd_v1_ApiKey, ApiKey__Output as _memoryd_v1_ApiKey__Output } from './memoryd/v1/ApiKey';
import type { CreateKeyRequest as _memoryd_v1_CreateKeyRequest, CreateKeyRequest__Output as _memoryd_v1_CreateKeyRequest__Output } from './memoryd/v1/CreateKeyRequest';
import type { CreateKeyResponse as _memoryd_v1_CreateKeyResponse, CreateKeyResponse__Output as _memoryd_v1_CreateKeyResponse__Output } from './memoryd/v1/CreateKeyResponse';
import type { KeyServiceClient as _memoryd_v1_KeyServiceClient, KeyServiceDefinition as _memoryd_v1_KeyServiceDefinition } from './memoryd/v1/KeyService';
import type { ListKeysRequest as _memoryd_v1_ListKeysRequest, ListKeysRequest__Output as _memoryd_v1_ListKeysRequest__Output } from './memoryd/v1/ListKeysRequest';
import type { ListKeysResponse as _memoryd_v1_ListKeysResponse, ListKeysResponse__Output as _memoryd_v1_ListKeysResponse__Output } from './memoryd/v1/ListKeysResponse';
import type { RevokeKeyRequest as _memoryd_v1_RevokeKeyRequest, RevokeKeyRequest__Output as _memoryd_v1_RevokeKeyRequest__Output } from './memoryd/v1/RevokeKeyRequest';
import type { RevokeKeyResponse as _memoryd_v1_RevokeKeyResponse, RevokeKeyResponse__Output as _memoryd_v1_RevokeKeyResponse__Output } from './memoryd/v1/RevokeKeyResponse';
import type { WhoAmIRequest as _memoryd_v1_WhoAmIRequest, WhoAmIRequest__Output as _memoryd_v1_WhoAmIRequest__Output } from './memoryd/v1/WhoAmIRequest';
import type { WhoAmIResponse as _memoryd_v1_WhoAmIResponse, WhoAmIResponse__Output as _memoryd_v1_WhoAmIResponse__Output } from './memoryd/v1/WhoAmIResponse';

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
      ApiKey: MessageTypeDefinition<_memoryd_v1_ApiKey, _memoryd_v1_ApiKey__Output>
      CreateKeyRequest: MessageTypeDefinition<_memoryd_v1_CreateKeyRequest, _memoryd_v1_CreateKeyRequest__Output>
      CreateKeyResponse: MessageTypeDefinition<_memoryd_v1_CreateKeyResponse, _memoryd_v1_CreateKeyResponse__Output>
      KeyRole: EnumTypeDefinition
      KeyScope: EnumTypeDefinition
      /**
       * KeyService creates, lists and revokes keys (the admin role; system keys for any tenant).
       */
      KeyService: SubtypeConstructor<typeof grpc.Client, _memoryd_v1_KeyServiceClient> & { service: _memoryd_v1_KeyServiceDefinition }
      ListKeysRequest: MessageTypeDefinition<_memoryd_v1_ListKeysRequest, _memoryd_v1_ListKeysRequest__Output>
      ListKeysResponse: MessageTypeDefinition<_memoryd_v1_ListKeysResponse, _memoryd_v1_ListKeysResponse__Output>
      RevokeKeyRequest: MessageTypeDefinition<_memoryd_v1_RevokeKeyRequest, _memoryd_v1_RevokeKeyRequest__Output>
      RevokeKeyResponse: MessageTypeDefinition<_memoryd_v1_RevokeKeyResponse, _memoryd_v1_RevokeKeyResponse__Output>
      WhoAmIRequest: MessageTypeDefinition<_memoryd_v1_WhoAmIRequest, _memoryd_v1_WhoAmIRequest__Output>
      WhoAmIResponse: MessageTypeDefinition<_memoryd_v1_WhoAmIResponse, _memoryd_v1_WhoAmIResponse__Output>
    }
  }
}

