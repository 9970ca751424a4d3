// Original file: ../../proto/memoryd/v1/profile.proto

import type { Long } from '@grpc/proto-loader';

/**
 * RestoreRevision names the revision whose document becomes current again.
 */
export interface RestoreRevision {
  /**
   * 1 to the current revision.
   */
  'revision'?: (number | string | Long);
}

/**
 * RestoreRevision names the revision whose document becomes current again.
 */
export interface RestoreRevision__Output {
  /**
   * 1 to the current revision.
   */
  'revision': (number);
}
