import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from './google/protobuf/Timestamp';
import type { AppendLine as _memoryd_v1_AppendLine, AppendLine__Output as _memoryd_v1_AppendLine__Output } from './memoryd/v1/AppendLine';
import type { EditProfileRequest as _memoryd_v1_EditProfileRequest, EditProfileRequest__Output as _memoryd_v1_EditProfileRequest__Output } from './memoryd/v1/EditProfileRequest';
import type { EditProfileResponse as _memoryd_v1_EditProfileResponse, EditProfileResponse__Output as _memoryd_v1_EditProfileResponse__Output } from './memoryd/v1/EditProfileResponse';
import type { GetProfileRequest as _memoryd_v1_GetProfileRequest, GetProfileRequest__Output as _memoryd_v1_GetProfileRequest__Output } from './memoryd/v1/GetProfileRequest';
import type { GetProfileResponse as _memoryd_v1_GetProfileResponse, GetProfileResponse__Output as _memoryd_v1_GetProfileResponse__Output } from './memoryd/v1/GetProfileResponse';
import type { GetProfileRevisionRequest as _memoryd_v1_GetProfileRevisionRequest, GetProfileRevisionRequest__Output as _memoryd_v1_GetProfileRevisionRequest__Output } from './memoryd/v1/GetProfileRevisionRequest';
import type { GetProfileRevisionResponse as _memoryd_v1_GetProfileRevisionResponse, GetProfileRevisionResponse__Output as _memoryd_v1_GetProfileRevisionResponse__Output } from './memoryd/v1/GetProfileRevisionResponse';
import type { ListProfileRevisionsRequest as _memoryd_v1_ListProfileRevisionsRequest, ListProfileRevisionsRequest__Output as _memoryd_v1_ListProfileRevisionsRequest__Output } from './memoryd/v1/ListProfileRevisionsRequest';
import type { ListProfileRevisionsResponse as _memoryd_v1_ListProfileRevisionsResponse, ListProfileRevisionsResponse__Output as _memoryd_v1_ListProfileRevisionsResponse__Output } from './memoryd/v1/ListProfileRevisionsResponse';
import type { Profile as _memoryd_v1_Profile, Profile__Output as _memoryd_v1_Profile__Output } from './memoryd/v1/Profile';
import type { ProfileServiceClient as _memoryd_v1_ProfileServiceClient, ProfileServiceDefinition as _memoryd_v1_ProfileServiceDefinition } from './memoryd/v1/ProfileService';
import type { RegenerateProfileRequest as _memoryd_v1_RegenerateProfileRequest, RegenerateProfileRequest__Output as _memoryd_v1_RegenerateProfileRequest__Output } from './memoryd/v1/RegenerateProfileRequest';
import type { RegenerateProfileResponse as _memoryd_v1_RegenerateProfileResponse, RegenerateProfileResponse__Output as _memoryd_v1_RegenerateProfileResponse__Output } from './memoryd/v1/RegenerateProfileResponse';
import type { RemoveLine as _memoryd_v1_RemoveLine, RemoveLine__Output as _memoryd_v1_RemoveLine__Output } from './memoryd/v1/RemoveLine';
import type { ReplaceSection as _memoryd_v1_ReplaceSection, ReplaceSection__Output as _memoryd_v1_ReplaceSection__Output } from './memoryd/v1/ReplaceSection';
import type { RestoreRevision as _memoryd_v1_RestoreRevision, RestoreRevision__Output as _memoryd_v1_RestoreRevision__Output } from './memoryd/v1/RestoreRevision';
import type { SetBudget as _memoryd_v1_SetBudget, SetBudget__Output as _memoryd_v1_SetBudget__Output } from './memoryd/v1/SetBudget';

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
      AppendLine: MessageTypeDefinition<_memoryd_v1_AppendLine, _memoryd_v1_AppendLine__Output>
      EditProfileRequest: MessageTypeDefinition<_memoryd_v1_EditProfileRequest, _memoryd_v1_EditProfileRequest__Output>
      EditProfileResponse: MessageTypeDefinition<_memoryd_v1_EditProfileResponse, _memoryd_v1_EditProfileResponse__Output>
      GetProfileRequest: MessageTypeDefinition<_memoryd_v1_GetProfileRequest, _memoryd_v1_GetProfileRequest__Output>
      GetProfileResponse: MessageTypeDefinition<_memoryd_v1_GetProfileResponse, _memoryd_v1_GetProfileResponse__Output>
      GetProfileRevisionRequest: MessageTypeDefinition<_memoryd_v1_GetProfileRevisionRequest, _memoryd_v1_GetProfileRevisionRequest__Output>
      GetProfileRevisionResponse: MessageTypeDefinition<_memoryd_v1_GetProfileRevisionResponse, _memoryd_v1_GetProfileRevisionResponse__Output>
      ListProfileRevisionsRequest: MessageTypeDefinition<_memoryd_v1_ListProfileRevisionsRequest, _memoryd_v1_ListProfileRevisionsRequest__Output>
      ListProfileRevisionsResponse: MessageTypeDefinition<_memoryd_v1_ListProfileRevisionsResponse, _memoryd_v1_ListProfileRevisionsResponse__Output>
      Profile: MessageTypeDefinition<_memoryd_v1_Profile, _memoryd_v1_Profile__Output>
      /**
       * ProfileService reads and edits agent profiles.
       */
      ProfileService: SubtypeConstructor<typeof grpc.Client, _memoryd_v1_ProfileServiceClient> & { service: _memoryd_v1_ProfileServiceDefinition }
      RegenerateProfileRequest: MessageTypeDefinition<_memoryd_v1_RegenerateProfileRequest, _memoryd_v1_RegenerateProfileRequest__Output>
      RegenerateProfileResponse: MessageTypeDefinition<_memoryd_v1_RegenerateProfileResponse, _memoryd_v1_RegenerateProfileResponse__Output>
      RemoveLine: MessageTypeDefinition<_memoryd_v1_RemoveLine, _memoryd_v1_RemoveLine__Output>
      ReplaceSection: MessageTypeDefinition<_memoryd_v1_ReplaceSection, _memoryd_v1_ReplaceSection__Output>
      RestoreRevision: MessageTypeDefinition<_memoryd_v1_RestoreRevision, _memoryd_v1_RestoreRevision__Output>
      SetBudget: MessageTypeDefinition<_memoryd_v1_SetBudget, _memoryd_v1_SetBudget__Output>
    }
  }
}

