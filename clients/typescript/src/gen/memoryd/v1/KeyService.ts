// Original file: ../../proto/memoryd/v1/keys.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CreateKeyRequest as _memoryd_v1_CreateKeyRequest, CreateKeyRequest__Output as _memoryd_v1_CreateKeyRequest__Output } from '../../memoryd/v1/CreateKeyRequest';
import type { CreateKeyResponse as _memoryd_v1_CreateKeyResponse, CreateKeyResponse__Output as _memoryd_v1_CreateKeyResponse__Output } from '../../memoryd/v1/CreateKeyResponse';
import type { ListKeysRequest as _memoryd_v1_ListKeysRequest, ListKeysRequest__Output as _memoryd_v1_ListKeysRequest__Output } from '../../memoryd/v1/ListKeysRequest';
import type { ListKeysResponse as _memoryd_v1_ListKeysResponse, ListKeysResponse__Output as _memoryd_v1_ListKeysResponse__Output } from '../../memoryd/v1/ListKeysResponse';
import type { RevokeKeyRequest as _memoryd_v1_RevokeKeyRequest, RevokeKeyRequest__Output as _memoryd_v1_RevokeKeyRequest__Output } from '../../memoryd/v1/RevokeKeyRequest';
import type { RevokeKeyResponse as _memoryd_v1_RevokeKeyResponse, RevokeKeyResponse__Output as _memoryd_v1_RevokeKeyResponse__Output } from '../../memoryd/v1/RevokeKeyResponse';
import type { WhoAmIRequest as _memoryd_v1_WhoAmIRequest, WhoAmIRequest__Output as _memoryd_v1_WhoAmIRequest__Output } from '../../memoryd/v1/WhoAmIRequest';
import type { WhoAmIResponse as _memoryd_v1_WhoAmIResponse, WhoAmIResponse__Output as _memoryd_v1_WhoAmIResponse__Output } from '../../memoryd/v1/WhoAmIResponse';

/**
 * KeyService creates, lists and revokes keys (the admin role; system keys for any tenant).
 */
export interface KeyServiceClient extends grpc.Client {
  /**
   * CreateKey makes a key of the caller's tenant, at most the caller's role. The secret is in this
   * reply only: memoryd keeps its SHA-256.
   */
  CreateKey(argument: _memoryd_v1_CreateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_CreateKeyResponse__Output>): grpc.ClientUnaryCall;
  CreateKey(argument: _memoryd_v1_CreateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_CreateKeyResponse__Output>): grpc.ClientUnaryCall;
  CreateKey(argument: _memoryd_v1_CreateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_CreateKeyResponse__Output>): grpc.ClientUnaryCall;
  CreateKey(argument: _memoryd_v1_CreateKeyRequest, callback: grpc.requestCallback<_memoryd_v1_CreateKeyResponse__Output>): grpc.ClientUnaryCall;
  /**
   * CreateKey makes a key of the caller's tenant, at most the caller's role. The secret is in this
   * reply only: memoryd keeps its SHA-256.
   */
  createKey(argument: _memoryd_v1_CreateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_CreateKeyResponse__Output>): grpc.ClientUnaryCall;
  createKey(argument: _memoryd_v1_CreateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_CreateKeyResponse__Output>): grpc.ClientUnaryCall;
  createKey(argument: _memoryd_v1_CreateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_CreateKeyResponse__Output>): grpc.ClientUnaryCall;
  createKey(argument: _memoryd_v1_CreateKeyRequest, callback: grpc.requestCallback<_memoryd_v1_CreateKeyResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * ListKeys lists the tenant's keys, revoked ones included (never a secret).
   */
  ListKeys(argument: _memoryd_v1_ListKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _memoryd_v1_ListKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _memoryd_v1_ListKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _memoryd_v1_ListKeysRequest, callback: grpc.requestCallback<_memoryd_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  /**
   * ListKeys lists the tenant's keys, revoked ones included (never a secret).
   */
  listKeys(argument: _memoryd_v1_ListKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _memoryd_v1_ListKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _memoryd_v1_ListKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _memoryd_v1_ListKeysRequest, callback: grpc.requestCallback<_memoryd_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * RevokeKey revokes a key of the tenant; every replica refuses it within `auth.cache_seconds`
   * (default 1 s). Revoking twice keeps the first time.
   */
  RevokeKey(argument: _memoryd_v1_RevokeKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RevokeKeyResponse__Output>): grpc.ClientUnaryCall;
  RevokeKey(argument: _memoryd_v1_RevokeKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_RevokeKeyResponse__Output>): grpc.ClientUnaryCall;
  RevokeKey(argument: _memoryd_v1_RevokeKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RevokeKeyResponse__Output>): grpc.ClientUnaryCall;
  RevokeKey(argument: _memoryd_v1_RevokeKeyRequest, callback: grpc.requestCallback<_memoryd_v1_RevokeKeyResponse__Output>): grpc.ClientUnaryCall;
  /**
   * RevokeKey revokes a key of the tenant; every replica refuses it within `auth.cache_seconds`
   * (default 1 s). Revoking twice keeps the first time.
   */
  revokeKey(argument: _memoryd_v1_RevokeKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RevokeKeyResponse__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _memoryd_v1_RevokeKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_RevokeKeyResponse__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _memoryd_v1_RevokeKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RevokeKeyResponse__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _memoryd_v1_RevokeKeyRequest, callback: grpc.requestCallback<_memoryd_v1_RevokeKeyResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * WhoAmI says who the call's credentials are: the tenant, the role, the key and the agent it is
   * pinned to. Any role may ask (a tool signs in with a pasted key and offers what its role allows).
   */
  WhoAmI(argument: _memoryd_v1_WhoAmIRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_WhoAmIResponse__Output>): grpc.ClientUnaryCall;
  WhoAmI(argument: _memoryd_v1_WhoAmIRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_WhoAmIResponse__Output>): grpc.ClientUnaryCall;
  WhoAmI(argument: _memoryd_v1_WhoAmIRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_WhoAmIResponse__Output>): grpc.ClientUnaryCall;
  WhoAmI(argument: _memoryd_v1_WhoAmIRequest, callback: grpc.requestCallback<_memoryd_v1_WhoAmIResponse__Output>): grpc.ClientUnaryCall;
  /**
   * WhoAmI says who the call's credentials are: the tenant, the role, the key and the agent it is
   * pinned to. Any role may ask (a tool signs in with a pasted key and offers what its role allows).
   */
  whoAmI(argument: _memoryd_v1_WhoAmIRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_WhoAmIResponse__Output>): grpc.ClientUnaryCall;
  whoAmI(argument: _memoryd_v1_WhoAmIRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_WhoAmIResponse__Output>): grpc.ClientUnaryCall;
  whoAmI(argument: _memoryd_v1_WhoAmIRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_WhoAmIResponse__Output>): grpc.ClientUnaryCall;
  whoAmI(argument: _memoryd_v1_WhoAmIRequest, callback: grpc.requestCallback<_memoryd_v1_WhoAmIResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * KeyService creates, lists and revokes keys (the admin role; system keys for any tenant).
 */
export interface KeyServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * CreateKey makes a key of the caller's tenant, at most the caller's role. The secret is in this
   * reply only: memoryd keeps its SHA-256.
   */
  CreateKey: grpc.handleUnaryCall<_memoryd_v1_CreateKeyRequest__Output, _memoryd_v1_CreateKeyResponse>;
  
  /**
   * ListKeys lists the tenant's keys, revoked ones included (never a secret).
   */
  ListKeys: grpc.handleUnaryCall<_memoryd_v1_ListKeysRequest__Output, _memoryd_v1_ListKeysResponse>;
  
  /**
   * RevokeKey revokes a key of the tenant; every replica refuses it within `auth.cache_seconds`
   * (default 1 s). Revoking twice keeps the first time.
   */
  RevokeKey: grpc.handleUnaryCall<_memoryd_v1_RevokeKeyRequest__Output, _memoryd_v1_RevokeKeyResponse>;
  
  /**
   * WhoAmI says who the call's credentials are: the tenant, the role, the key and the agent it is
   * pinned to. Any role may ask (a tool signs in with a pasted key and offers what its role allows).
   */
  WhoAmI: grpc.handleUnaryCall<_memoryd_v1_WhoAmIRequest__Output, _memoryd_v1_WhoAmIResponse>;
  
}

export interface KeyServiceDefinition extends grpc.ServiceDefinition {
  CreateKey: MethodDefinition<_memoryd_v1_CreateKeyRequest, _memoryd_v1_CreateKeyResponse, _memoryd_v1_CreateKeyRequest__Output, _memoryd_v1_CreateKeyResponse__Output>
  ListKeys: MethodDefinition<_memoryd_v1_ListKeysRequest, _memoryd_v1_ListKeysResponse, _memoryd_v1_ListKeysRequest__Output, _memoryd_v1_ListKeysResponse__Output>
  RevokeKey: MethodDefinition<_memoryd_v1_RevokeKeyRequest, _memoryd_v1_RevokeKeyResponse, _memoryd_v1_RevokeKeyRequest__Output, _memoryd_v1_RevokeKeyResponse__Output>
  WhoAmI: MethodDefinition<_memoryd_v1_WhoAmIRequest, _memoryd_v1_WhoAmIResponse, _memoryd_v1_WhoAmIRequest__Output, _memoryd_v1_WhoAmIResponse__Output>
}
