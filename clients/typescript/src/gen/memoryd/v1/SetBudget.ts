// Original file: ../../proto/memoryd/v1/profile.proto


/**
 * SetBudget changes the agent's token budget.
 */
export interface SetBudget {
  /**
   * 1 to 100,000, and at least the current token count.
   */
  'budgetTokens'?: (number);
}

/**
 * SetBudget changes the agent's token budget.
 */
export interface SetBudget__Output {
  /**
   * 1 to 100,000, and at least the current token count.
   */
  'budgetTokens': (number);
}
