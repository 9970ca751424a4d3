// Original file: ../../proto/memoryd/v1/graph.proto

/**
 * FactStatus is where a fact stands.
 */
export const FactStatus = {
  /**
   * On UpdateFact: leave the status as it is.
   */
  FACT_STATUS_UNSPECIFIED: 'FACT_STATUS_UNSPECIFIED',
  FACT_STATUS_ACTIVE: 'FACT_STATUS_ACTIVE',
  /**
   * Superseded by a later fact, or ended by hand; kept.
   */
  FACT_STATUS_INVALIDATED: 'FACT_STATUS_INVALIDATED',
  /**
   * Extracted under `graph.write_approval`: invisible to search until approved.
   */
  FACT_STATUS_PENDING: 'FACT_STATUS_PENDING',
  /**
   * Set aside by the daily decay pass (non-pinned, less sure than
   * `retention.graph_decay_confidence`, nobody stated it for
   * `retention.graph_decay_days`): not searched; active again when stated
   * again or restored with UpdateFact(FACT_STATUS_ACTIVE).
   */
  FACT_STATUS_ARCHIVED: 'FACT_STATUS_ARCHIVED',
} as const;

/**
 * FactStatus is where a fact stands.
 */
export type FactStatus =
  /**
   * On UpdateFact: leave the status as it is.
   */
  | 'FACT_STATUS_UNSPECIFIED'
  | 0
  | 'FACT_STATUS_ACTIVE'
  | 1
  /**
   * Superseded by a later fact, or ended by hand; kept.
   */
  | 'FACT_STATUS_INVALIDATED'
  | 2
  /**
   * Extracted under `graph.write_approval`: invisible to search until approved.
   */
  | 'FACT_STATUS_PENDING'
  | 3
  /**
   * Set aside by the daily decay pass (non-pinned, less sure than
   * `retention.graph_decay_confidence`, nobody stated it for
   * `retention.graph_decay_days`): not searched; active again when stated
   * again or restored with UpdateFact(FACT_STATUS_ACTIVE).
   */
  | 'FACT_STATUS_ARCHIVED'
  | 4

/**
 * FactStatus is where a fact stands.
 */
export type FactStatus__Output = typeof FactStatus[keyof typeof FactStatus]
