// Original file: ../../proto/memoryd/v1/profile.proto

import type { Profile as _memoryd_v1_Profile, Profile__Output as _memoryd_v1_Profile__Output } from '../../memoryd/v1/Profile';

/**
 * GetProfileRevisionResponse carries it.
 */
export interface GetProfileRevisionResponse {
  /**
   * That revision.
   */
  'profile'?: (_memoryd_v1_Profile | null);
}

/**
 * GetProfileRevisionResponse carries it.
 */
export interface GetProfileRevisionResponse__Output {
  /**
   * That revision.
   */
  'profile': (_memoryd_v1_Profile__Output | null);
}
