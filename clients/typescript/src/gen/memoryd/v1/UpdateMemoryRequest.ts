// Original file: ../../proto/memoryd/v1/memory.proto

import type { Scope as _memoryd_v1_Scope, Scope__Output as _memoryd_v1_Scope__Output } from '../../memoryd/v1/Scope';
import type { TagList as _memoryd_v1_TagList, TagList__Output as _memoryd_v1_TagList__Output } from '../../memoryd/v1/TagList';

/**
 * UpdateMemoryRequest changes the fields that are set. The author may change
 * its private and shared memories; the content, tags and other fields of
 * tenant and end_user memories may be changed by any agent that sees them.
 * The scope decides who sees a memory, so only the author may change it, and
 * an end_user memory stays SCOPE_END_USER (its contact's): PERMISSION_DENIED
 * otherwise, and nothing changes.
 */
export interface UpdateMemoryRequest {
  /**
   * The acting agent. Required.
   */
  'agentId'?: (string);
  /**
   * The contact being served.
   */
  'endUserId'?: (string);
  /**
   * The memory id. Required.
   */
  'memoryId'?: (string);
  /**
   * New content (same limits as MemoryInput.content); re-embeds.
   */
  'content'?: (string);
  /**
   * New category.
   */
  'category'?: (string);
  /**
   * New subject.
   */
  'subject'?: (string);
  /**
   * New scope (SCOPE_UNSPECIFIED is rejected here).
   */
  'scope'?: (_memoryd_v1_Scope);
  /**
   * Replaces the tags.
   */
  'tags'?: (_memoryd_v1_TagList | null);
  /**
   * New salience in [0, 1].
   */
  'salience'?: (number | string);
  /**
   * Files it in another collection (same rules as MemoryInput.collection; "" takes it out of any).
   */
  'collection'?: (string);
  /**
   * Pins it (kept by retention and reviews, see Memory.pinned) or unpins it.
   */
  'pinned'?: (boolean);
  '_content'?: "content";
  '_category'?: "category";
  '_subject'?: "subject";
  '_scope'?: "scope";
  '_salience'?: "salience";
  '_collection'?: "collection";
  '_pinned'?: "pinned";
}

/**
 * UpdateMemoryRequest changes the fields that are set. The author may change
 * its private and shared memories; the content, tags and other fields of
 * tenant and end_user memories may be changed by any agent that sees them.
 * The scope decides who sees a memory, so only the author may change it, and
 * an end_user memory stays SCOPE_END_USER (its contact's): PERMISSION_DENIED
 * otherwise, and nothing changes.
 */
export interface UpdateMemoryRequest__Output {
  /**
   * The acting agent. Required.
   */
  'agentId': (string);
  /**
   * The contact being served.
   */
  'endUserId': (string);
  /**
   * The memory id. Required.
   */
  'memoryId': (string);
  /**
   * New content (same limits as MemoryInput.content); re-embeds.
   */
  'content'?: (string);
  /**
   * New category.
   */
  'category'?: (string);
  /**
   * New subject.
   */
  'subject'?: (string);
  /**
   * New scope (SCOPE_UNSPECIFIED is rejected here).
   */
  'scope'?: (_memoryd_v1_Scope__Output);
  /**
   * Replaces the tags.
   */
  'tags': (_memoryd_v1_TagList__Output | null);
  /**
   * New salience in [0, 1].
   */
  'salience'?: (number);
  /**
   * Files it in another collection (same rules as MemoryInput.collection; "" takes it out of any).
   */
  'collection'?: (string);
  /**
   * Pins it (kept by retention and reviews, see Memory.pinned) or unpins it.
   */
  'pinned'?: (boolean);
  '_content'?: "content";
  '_category'?: "category";
  '_subject'?: "subject";
  '_scope'?: "scope";
  '_salience'?: "salience";
  '_collection'?: "collection";
  '_pinned'?: "pinned";
}
