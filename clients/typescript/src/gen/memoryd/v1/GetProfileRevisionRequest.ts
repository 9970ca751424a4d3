// Original file: ../../proto/memoryd/v1/profile.proto

import type { Long } from '@grpc/proto-loader';

/**
 * GetProfileRevisionRequest names one revision.
 */
export interface GetProfileRevisionRequest {
  /**
   * The agent. Required.
   */
  'agentId'?: (string);
  /**
   * 1 to 2^53; outside that range is INVALID_ARGUMENT.
   */
  'revision'?: (number | string | Long);
}

/**
 * GetProfileRevisionRequest names one revision.
 */
export interface GetProfileRevisionRequest__Output {
  /**
   * The agent. Required.
   */
  'agentId': (string);
  /**
   * 1 to 2^53; outside that range is INVALID_ARGUMENT.
   */
  'revision': (number);
}
