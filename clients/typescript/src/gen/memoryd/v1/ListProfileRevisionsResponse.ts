// Original file: ../../proto/memoryd/v1/profile.proto

import type { Profile as _memoryd_v1_Profile, Profile__Output as _memoryd_v1_Profile__Output } from '../../memoryd/v1/Profile';

/**
 * ListProfileRevisionsResponse is one page, newest first.
 */
export interface ListProfileRevisionsResponse {
  /**
   * Revisions (documents included).
   */
  'revisions'?: (_memoryd_v1_Profile)[];
  /**
   * Empty on the last page.
   */
  'nextPageToken'?: (string);
}

/**
 * ListProfileRevisionsResponse is one page, newest first.
 */
export interface ListProfileRevisionsResponse__Output {
  /**
   * Revisions (documents included).
   */
  'revisions': (_memoryd_v1_Profile__Output)[];
  /**
   * Empty on the last page.
   */
  'nextPageToken': (string);
}
