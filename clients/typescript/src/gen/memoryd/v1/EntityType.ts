// Original file: ../../proto/memoryd/v1/graph.proto

/**
 * EntityType is what an entity is.
 */
export const EntityType = {
  /**
   * Stored as ENTITY_TYPE_OTHER.
   */
  ENTITY_TYPE_UNSPECIFIED: 'ENTITY_TYPE_UNSPECIFIED',
  ENTITY_TYPE_PERSON: 'ENTITY_TYPE_PERSON',
  ENTITY_TYPE_ORGANIZATION: 'ENTITY_TYPE_ORGANIZATION',
  ENTITY_TYPE_PLACE: 'ENTITY_TYPE_PLACE',
  ENTITY_TYPE_TOPIC: 'ENTITY_TYPE_TOPIC',
  ENTITY_TYPE_PRODUCT: 'ENTITY_TYPE_PRODUCT',
  ENTITY_TYPE_EVENT: 'ENTITY_TYPE_EVENT',
  ENTITY_TYPE_OTHER: 'ENTITY_TYPE_OTHER',
} as const;

/**
 * EntityType is what an entity is.
 */
export type EntityType =
  /**
   * Stored as ENTITY_TYPE_OTHER.
   */
  | 'ENTITY_TYPE_UNSPECIFIED'
  | 0
  | 'ENTITY_TYPE_PERSON'
  | 1
  | 'ENTITY_TYPE_ORGANIZATION'
  | 2
  | 'ENTITY_TYPE_PLACE'
  | 3
  | 'ENTITY_TYPE_TOPIC'
  | 4
  | 'ENTITY_TYPE_PRODUCT'
  | 5
  | 'ENTITY_TYPE_EVENT'
  | 6
  | 'ENTITY_TYPE_OTHER'
  | 7

/**
 * EntityType is what an entity is.
 */
export type EntityType__Output = typeof EntityType[keyof typeof EntityType]
