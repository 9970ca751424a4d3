// Original file: ../../proto/memoryd/v1/conversation.proto

import type { Long } from '@grpc/proto-loader';

/**
 * AppendMessagesResponse reports what was stored.
 */
export interface AppendMessagesResponse {
  /**
   * The seq of each request message, in request order; 0 for a duplicate of an earlier append.
   */
  'seqs'?: (number | string | Long)[];
  /**
   * Messages already present (by message_id).
   */
  'duplicates'?: (number);
  /**
   * The compaction job queued by this append, if any.
   */
  'compactionJobId'?: (string);
}

/**
 * AppendMessagesResponse reports what was stored.
 */
export interface AppendMessagesResponse__Output {
  /**
   * The seq of each request message, in request order; 0 for a duplicate of an earlier append.
   */
  'seqs': (number)[];
  /**
   * Messages already present (by message_id).
   */
  'duplicates': (number);
  /**
   * The compaction job queued by this append, if any.
   */
  'compactionJobId': (string);
}
