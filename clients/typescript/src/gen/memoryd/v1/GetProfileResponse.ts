// Original file: ../../proto/memoryd/v1/profile.proto

import type { Profile as _memoryd_v1_Profile, Profile__Output as _memoryd_v1_Profile__Output } from '../../memoryd/v1/Profile';

/**
 * GetProfileResponse carries the current profile.
 */
export interface GetProfileResponse {
  /**
   * The current revision.
   */
  'profile'?: (_memoryd_v1_Profile | null);
}

/**
 * GetProfileResponse carries the current profile.
 */
export interface GetProfileResponse__Output {
  /**
   * The current revision.
   */
  'profile': (_memoryd_v1_Profile__Output | null);
}
