// Original file: ../../proto/memoryd/v1/memory.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';
import type { MemoryType as _memoryd_v1_MemoryType, MemoryType__Output as _memoryd_v1_MemoryType__Output } from '../../memoryd/v1/MemoryType';
import type { TagMode as _memoryd_v1_TagMode, TagMode__Output as _memoryd_v1_TagMode__Output } from '../../memoryd/v1/TagMode';
import type { Scope as _memoryd_v1_Scope, Scope__Output as _memoryd_v1_Scope__Output } from '../../memoryd/v1/Scope';
import type { MemoryStatus as _memoryd_v1_MemoryStatus, MemoryStatus__Output as _memoryd_v1_MemoryStatus__Output } from '../../memoryd/v1/MemoryStatus';

/**
 * RecallFilter narrows a search; every condition applies to both arms.
 */
export interface RecallFilter {
  /**
   * Exact subject; empty means any.
   */
  'subject'?: (string);
  /**
   * Exact category; empty means any.
   */
  'category'?: (string);
  /**
   * Only memories whose occurred_at is at or after this time.
   */
  'since'?: (_google_protobuf_Timestamp | null);
  /**
   * MEMORY_TYPE_UNSPECIFIED means any.
   */
  'memoryType'?: (_memoryd_v1_MemoryType);
  /**
   * At most 32 tags; empty means any.
   */
  'tags'?: (string)[];
  /**
   * How `tags` combine; default TAG_MODE_ANY.
   */
  'tagMode'?: (_memoryd_v1_TagMode);
  /**
   * Restrict to these scopes (still within visibility); empty means all
   * visible scopes.
   */
  'scopes'?: (_memoryd_v1_Scope)[];
  /**
   * Lifecycle states to include; empty means active only (archived and
   * superseded memories appear only when asked for).
   */
  'statuses'?: (_memoryd_v1_MemoryStatus)[];
  /**
   * Only memories annotating this memory id (their source_id); empty means
   * any. Must be a memory id when set.
   */
  'sourceId'?: (string);
  /**
   * Only memories of this named collection; empty means any.
   */
  'collection'?: (string);
  /**
   * Only pinned memories (Memory.pinned); false: pinned or not.
   */
  'pinnedOnly'?: (boolean);
}

/**
 * RecallFilter narrows a search; every condition applies to both arms.
 */
export interface RecallFilter__Output {
  /**
   * Exact subject; empty means any.
   */
  'subject': (string);
  /**
   * Exact category; empty means any.
   */
  'category': (string);
  /**
   * Only memories whose occurred_at is at or after this time.
   */
  'since': (_google_protobuf_Timestamp__Output | null);
  /**
   * MEMORY_TYPE_UNSPECIFIED means any.
   */
  'memoryType': (_memoryd_v1_MemoryType__Output);
  /**
   * At most 32 tags; empty means any.
   */
  'tags': (string)[];
  /**
   * How `tags` combine; default TAG_MODE_ANY.
   */
  'tagMode': (_memoryd_v1_TagMode__Output);
  /**
   * Restrict to these scopes (still within visibility); empty means all
   * visible scopes.
   */
  'scopes': (_memoryd_v1_Scope__Output)[];
  /**
   * Lifecycle states to include; empty means active only (archived and
   * superseded memories appear only when asked for).
   */
  'statuses': (_memoryd_v1_MemoryStatus__Output)[];
  /**
   * Only memories annotating this memory id (their source_id); empty means
   * any. Must be a memory id when set.
   */
  'sourceId': (string);
  /**
   * Only memories of this named collection; empty means any.
   */
  'collection': (string);
  /**
   * Only pinned memories (Memory.pinned); false: pinned or not.
   */
  'pinnedOnly': (boolean);
}
