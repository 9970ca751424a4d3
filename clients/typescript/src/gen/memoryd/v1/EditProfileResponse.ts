// Original file: ../../proto/memoryd/v1/profile.proto

import type { Profile as _memoryd_v1_Profile, Profile__Output as _memoryd_v1_Profile__Output } from '../../memoryd/v1/Profile';

/**
 * EditProfileResponse returns the new revision.
 */
export interface EditProfileResponse {
  /**
   * The profile after the edit.
   */
  'profile'?: (_memoryd_v1_Profile | null);
}

/**
 * EditProfileResponse returns the new revision.
 */
export interface EditProfileResponse__Output {
  /**
   * The profile after the edit.
   */
  'profile': (_memoryd_v1_Profile__Output | null);
}
