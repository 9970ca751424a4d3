// Original file: ../../proto/memoryd/v1/profile.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { EditProfileRequest as _memoryd_v1_EditProfileRequest, EditProfileRequest__Output as _memoryd_v1_EditProfileRequest__Output } from '../../memoryd/v1/EditProfileRequest';
import type { EditProfileResponse as _memoryd_v1_EditProfileResponse, EditProfileResponse__Output as _memoryd_v1_EditProfileResponse__Output } from '../../memoryd/v1/EditProfileResponse';
import type { GetProfileRequest as _memoryd_v1_GetProfileRequest, GetProfileRequest__Output as _memoryd_v1_GetProfileRequest__Output } from '../../memoryd/v1/GetProfileRequest';
import type { GetProfileResponse as _memoryd_v1_GetProfileResponse, GetProfileResponse__Output as _memoryd_v1_GetProfileResponse__Output } from '../../memoryd/v1/GetProfileResponse';
import type { GetProfileRevisionRequest as _memoryd_v1_GetProfileRevisionRequest, GetProfileRevisionRequest__Output as _memoryd_v1_GetProfileRevisionRequest__Output } from '../../memoryd/v1/GetProfileRevisionRequest';
import type { GetProfileRevisionResponse as _memoryd_v1_GetProfileRevisionResponse, GetProfileRevisionResponse__Output as _memoryd_v1_GetProfileRevisionResponse__Output } from '../../memoryd/v1/GetProfileRevisionResponse';
import type { ListProfileRevisionsRequest as _memoryd_v1_ListProfileRevisionsRequest, ListProfileRevisionsRequest__Output as _memoryd_v1_ListProfileRevisionsRequest__Output } from '../../memoryd/v1/ListProfileRevisionsRequest';
import type { ListProfileRevisionsResponse as _memoryd_v1_ListProfileRevisionsResponse, ListProfileRevisionsResponse__Output as _memoryd_v1_ListProfileRevisionsResponse__Output } from '../../memoryd/v1/ListProfileRevisionsResponse';
import type { RegenerateProfileRequest as _memoryd_v1_RegenerateProfileRequest, RegenerateProfileRequest__Output as _memoryd_v1_RegenerateProfileRequest__Output } from '../../memoryd/v1/RegenerateProfileRequest';
import type { RegenerateProfileResponse as _memoryd_v1_RegenerateProfileResponse, RegenerateProfileResponse__Output as _memoryd_v1_RegenerateProfileResponse__Output } from '../../memoryd/v1/RegenerateProfileResponse';

/**
 * ProfileService reads and edits agent profiles.
 */
export interface ProfileServiceClient extends grpc.Client {
  /**
   * EditProfile applies one edit without any model call.
   * 
   * Routing rule: Should this influence the agent's behaviour in most future
   * conversations, without anyone mentioning it? Yes: edit the profile. No:
   * Memorize it in the archive.
   * 
   * `expected_revision` must equal the current revision, or the call fails
   * with ABORTED and changes nothing (re-read and retry). An edit that would
   * exceed the budget fails with FAILED_PRECONDITION naming both token counts.
   * `remove_line` of a line that is not there fails with NOT_FOUND.
   * `restore_revision` of a revision the profile never had fails with
   * NOT_FOUND.
   */
  EditProfile(argument: _memoryd_v1_EditProfileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_EditProfileResponse__Output>): grpc.ClientUnaryCall;
  EditProfile(argument: _memoryd_v1_EditProfileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_EditProfileResponse__Output>): grpc.ClientUnaryCall;
  EditProfile(argument: _memoryd_v1_EditProfileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_EditProfileResponse__Output>): grpc.ClientUnaryCall;
  EditProfile(argument: _memoryd_v1_EditProfileRequest, callback: grpc.requestCallback<_memoryd_v1_EditProfileResponse__Output>): grpc.ClientUnaryCall;
  /**
   * EditProfile applies one edit without any model call.
   * 
   * Routing rule: Should this influence the agent's behaviour in most future
   * conversations, without anyone mentioning it? Yes: edit the profile. No:
   * Memorize it in the archive.
   * 
   * `expected_revision` must equal the current revision, or the call fails
   * with ABORTED and changes nothing (re-read and retry). An edit that would
   * exceed the budget fails with FAILED_PRECONDITION naming both token counts.
   * `remove_line` of a line that is not there fails with NOT_FOUND.
   * `restore_revision` of a revision the profile never had fails with
   * NOT_FOUND.
   */
  editProfile(argument: _memoryd_v1_EditProfileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_EditProfileResponse__Output>): grpc.ClientUnaryCall;
  editProfile(argument: _memoryd_v1_EditProfileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_EditProfileResponse__Output>): grpc.ClientUnaryCall;
  editProfile(argument: _memoryd_v1_EditProfileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_EditProfileResponse__Output>): grpc.ClientUnaryCall;
  editProfile(argument: _memoryd_v1_EditProfileRequest, callback: grpc.requestCallback<_memoryd_v1_EditProfileResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GetProfile returns the current document, its token count and budget, the
   * revision, and the prompt block to cache.
   */
  GetProfile(argument: _memoryd_v1_GetProfileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetProfileResponse__Output>): grpc.ClientUnaryCall;
  GetProfile(argument: _memoryd_v1_GetProfileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_GetProfileResponse__Output>): grpc.ClientUnaryCall;
  GetProfile(argument: _memoryd_v1_GetProfileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetProfileResponse__Output>): grpc.ClientUnaryCall;
  GetProfile(argument: _memoryd_v1_GetProfileRequest, callback: grpc.requestCallback<_memoryd_v1_GetProfileResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GetProfile returns the current document, its token count and budget, the
   * revision, and the prompt block to cache.
   */
  getProfile(argument: _memoryd_v1_GetProfileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetProfileResponse__Output>): grpc.ClientUnaryCall;
  getProfile(argument: _memoryd_v1_GetProfileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_GetProfileResponse__Output>): grpc.ClientUnaryCall;
  getProfile(argument: _memoryd_v1_GetProfileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetProfileResponse__Output>): grpc.ClientUnaryCall;
  getProfile(argument: _memoryd_v1_GetProfileRequest, callback: grpc.requestCallback<_memoryd_v1_GetProfileResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GetProfileRevision returns one past (or the current) revision.
   */
  GetProfileRevision(argument: _memoryd_v1_GetProfileRevisionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetProfileRevisionResponse__Output>): grpc.ClientUnaryCall;
  GetProfileRevision(argument: _memoryd_v1_GetProfileRevisionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_GetProfileRevisionResponse__Output>): grpc.ClientUnaryCall;
  GetProfileRevision(argument: _memoryd_v1_GetProfileRevisionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetProfileRevisionResponse__Output>): grpc.ClientUnaryCall;
  GetProfileRevision(argument: _memoryd_v1_GetProfileRevisionRequest, callback: grpc.requestCallback<_memoryd_v1_GetProfileRevisionResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GetProfileRevision returns one past (or the current) revision.
   */
  getProfileRevision(argument: _memoryd_v1_GetProfileRevisionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetProfileRevisionResponse__Output>): grpc.ClientUnaryCall;
  getProfileRevision(argument: _memoryd_v1_GetProfileRevisionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_GetProfileRevisionResponse__Output>): grpc.ClientUnaryCall;
  getProfileRevision(argument: _memoryd_v1_GetProfileRevisionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_GetProfileRevisionResponse__Output>): grpc.ClientUnaryCall;
  getProfileRevision(argument: _memoryd_v1_GetProfileRevisionRequest, callback: grpc.requestCallback<_memoryd_v1_GetProfileRevisionResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * ListProfileRevisions pages through the revisions, newest first.
   */
  ListProfileRevisions(argument: _memoryd_v1_ListProfileRevisionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListProfileRevisionsResponse__Output>): grpc.ClientUnaryCall;
  ListProfileRevisions(argument: _memoryd_v1_ListProfileRevisionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ListProfileRevisionsResponse__Output>): grpc.ClientUnaryCall;
  ListProfileRevisions(argument: _memoryd_v1_ListProfileRevisionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListProfileRevisionsResponse__Output>): grpc.ClientUnaryCall;
  ListProfileRevisions(argument: _memoryd_v1_ListProfileRevisionsRequest, callback: grpc.requestCallback<_memoryd_v1_ListProfileRevisionsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * ListProfileRevisions pages through the revisions, newest first.
   */
  listProfileRevisions(argument: _memoryd_v1_ListProfileRevisionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListProfileRevisionsResponse__Output>): grpc.ClientUnaryCall;
  listProfileRevisions(argument: _memoryd_v1_ListProfileRevisionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_ListProfileRevisionsResponse__Output>): grpc.ClientUnaryCall;
  listProfileRevisions(argument: _memoryd_v1_ListProfileRevisionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_ListProfileRevisionsResponse__Output>): grpc.ClientUnaryCall;
  listProfileRevisions(argument: _memoryd_v1_ListProfileRevisionsRequest, callback: grpc.requestCallback<_memoryd_v1_ListProfileRevisionsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * RegenerateProfile compiles the agent's archive into a new profile with one
   * model call, in a background job (Pinned is preserved). It returns the job's
   * key at once (follow it with JobService.WatchJob); asking again for the same
   * profile revision returns the same job. UNAVAILABLE without a job queue.
   */
  RegenerateProfile(argument: _memoryd_v1_RegenerateProfileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RegenerateProfileResponse__Output>): grpc.ClientUnaryCall;
  RegenerateProfile(argument: _memoryd_v1_RegenerateProfileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_RegenerateProfileResponse__Output>): grpc.ClientUnaryCall;
  RegenerateProfile(argument: _memoryd_v1_RegenerateProfileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RegenerateProfileResponse__Output>): grpc.ClientUnaryCall;
  RegenerateProfile(argument: _memoryd_v1_RegenerateProfileRequest, callback: grpc.requestCallback<_memoryd_v1_RegenerateProfileResponse__Output>): grpc.ClientUnaryCall;
  /**
   * RegenerateProfile compiles the agent's archive into a new profile with one
   * model call, in a background job (Pinned is preserved). It returns the job's
   * key at once (follow it with JobService.WatchJob); asking again for the same
   * profile revision returns the same job. UNAVAILABLE without a job queue.
   */
  regenerateProfile(argument: _memoryd_v1_RegenerateProfileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RegenerateProfileResponse__Output>): grpc.ClientUnaryCall;
  regenerateProfile(argument: _memoryd_v1_RegenerateProfileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_memoryd_v1_RegenerateProfileResponse__Output>): grpc.ClientUnaryCall;
  regenerateProfile(argument: _memoryd_v1_RegenerateProfileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_memoryd_v1_RegenerateProfileResponse__Output>): grpc.ClientUnaryCall;
  regenerateProfile(argument: _memoryd_v1_RegenerateProfileRequest, callback: grpc.requestCallback<_memoryd_v1_RegenerateProfileResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * ProfileService reads and edits agent profiles.
 */
export interface ProfileServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * EditProfile applies one edit without any model call.
   * 
   * Routing rule: Should this influence the agent's behaviour in most future
   * conversations, without anyone mentioning it? Yes: edit the profile. No:
   * Memorize it in the archive.
   * 
   * `expected_revision` must equal the current revision, or the call fails
   * with ABORTED and changes nothing (re-read and retry). An edit that would
   * exceed the budget fails with FAILED_PRECONDITION naming both token counts.
   * `remove_line` of a line that is not there fails with NOT_FOUND.
   * `restore_revision` of a revision the profile never had fails with
   * NOT_FOUND.
   */
  EditProfile: grpc.handleUnaryCall<_memoryd_v1_EditProfileRequest__Output, _memoryd_v1_EditProfileResponse>;
  
  /**
   * GetProfile returns the current document, its token count and budget, the
   * revision, and the prompt block to cache.
   */
  GetProfile: grpc.handleUnaryCall<_memoryd_v1_GetProfileRequest__Output, _memoryd_v1_GetProfileResponse>;
  
  /**
   * GetProfileRevision returns one past (or the current) revision.
   */
  GetProfileRevision: grpc.handleUnaryCall<_memoryd_v1_GetProfileRevisionRequest__Output, _memoryd_v1_GetProfileRevisionResponse>;
  
  /**
   * ListProfileRevisions pages through the revisions, newest first.
   */
  ListProfileRevisions: grpc.handleUnaryCall<_memoryd_v1_ListProfileRevisionsRequest__Output, _memoryd_v1_ListProfileRevisionsResponse>;
  
  /**
   * RegenerateProfile compiles the agent's archive into a new profile with one
   * model call, in a background job (Pinned is preserved). It returns the job's
   * key at once (follow it with JobService.WatchJob); asking again for the same
   * profile revision returns the same job. UNAVAILABLE without a job queue.
   */
  RegenerateProfile: grpc.handleUnaryCall<_memoryd_v1_RegenerateProfileRequest__Output, _memoryd_v1_RegenerateProfileResponse>;
  
}

export interface ProfileServiceDefinition extends grpc.ServiceDefinition {
  EditProfile: MethodDefinition<_memoryd_v1_EditProfileRequest, _memoryd_v1_EditProfileResponse, _memoryd_v1_EditProfileRequest__Output, _memoryd_v1_EditProfileResponse__Output>
  GetProfile: MethodDefinition<_memoryd_v1_GetProfileRequest, _memoryd_v1_GetProfileResponse, _memoryd_v1_GetProfileRequest__Output, _memoryd_v1_GetProfileResponse__Output>
  GetProfileRevision: MethodDefinition<_memoryd_v1_GetProfileRevisionRequest, _memoryd_v1_GetProfileRevisionResponse, _memoryd_v1_GetProfileRevisionRequest__Output, _memoryd_v1_GetProfileRevisionResponse__Output>
  ListProfileRevisions: MethodDefinition<_memoryd_v1_ListProfileRevisionsRequest, _memoryd_v1_ListProfileRevisionsResponse, _memoryd_v1_ListProfileRevisionsRequest__Output, _memoryd_v1_ListProfileRevisionsResponse__Output>
  RegenerateProfile: MethodDefinition<_memoryd_v1_RegenerateProfileRequest, _memoryd_v1_RegenerateProfileResponse, _memoryd_v1_RegenerateProfileRequest__Output, _memoryd_v1_RegenerateProfileResponse__Output>
}
