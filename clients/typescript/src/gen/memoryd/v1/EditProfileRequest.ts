// Original file: ../../proto/memoryd/v1/profile.proto

import type { AppendLine as _memoryd_v1_AppendLine, AppendLine__Output as _memoryd_v1_AppendLine__Output } from '../../memoryd/v1/AppendLine';
import type { ReplaceSection as _memoryd_v1_ReplaceSection, ReplaceSection__Output as _memoryd_v1_ReplaceSection__Output } from '../../memoryd/v1/ReplaceSection';
import type { RemoveLine as _memoryd_v1_RemoveLine, RemoveLine__Output as _memoryd_v1_RemoveLine__Output } from '../../memoryd/v1/RemoveLine';
import type { SetBudget as _memoryd_v1_SetBudget, SetBudget__Output as _memoryd_v1_SetBudget__Output } from '../../memoryd/v1/SetBudget';
import type { RestoreRevision as _memoryd_v1_RestoreRevision, RestoreRevision__Output as _memoryd_v1_RestoreRevision__Output } from '../../memoryd/v1/RestoreRevision';
import type { Long } from '@grpc/proto-loader';

/**
 * EditProfileRequest applies one edit at one expected revision.
 */
export interface EditProfileRequest {
  /**
   * The agent. Required.
   */
  'agentId'?: (string);
  /**
   * The revision the edit is based on (0 for a profile never written), at
   * most 2^53; outside [0, 2^53] is INVALID_ARGUMENT.
   */
  'expectedRevision'?: (number | string | Long);
  /**
   * Add a line.
   */
  'append'?: (_memoryd_v1_AppendLine | null);
  /**
   * Replace a section body.
   */
  'replaceSection'?: (_memoryd_v1_ReplaceSection | null);
  /**
   * Remove a line.
   */
  'removeLine'?: (_memoryd_v1_RemoveLine | null);
  /**
   * Change the budget.
   */
  'setBudget'?: (_memoryd_v1_SetBudget | null);
  /**
   * Make an earlier revision's document current again: undoes a rewrite or
   * edits as a new revision (the budget stays; every revision stays listed).
   */
  'restoreRevision'?: (_memoryd_v1_RestoreRevision | null);
  /**
   * Exactly one edit.
   */
  'edit'?: "append"|"replaceSection"|"removeLine"|"setBudget"|"restoreRevision";
}

/**
 * EditProfileRequest applies one edit at one expected revision.
 */
export interface EditProfileRequest__Output {
  /**
   * The agent. Required.
   */
  'agentId': (string);
  /**
   * The revision the edit is based on (0 for a profile never written), at
   * most 2^53; outside [0, 2^53] is INVALID_ARGUMENT.
   */
  'expectedRevision': (number);
  /**
   * Add a line.
   */
  'append'?: (_memoryd_v1_AppendLine__Output | null);
  /**
   * Replace a section body.
   */
  'replaceSection'?: (_memoryd_v1_ReplaceSection__Output | null);
  /**
   * Remove a line.
   */
  'removeLine'?: (_memoryd_v1_RemoveLine__Output | null);
  /**
   * Change the budget.
   */
  'setBudget'?: (_memoryd_v1_SetBudget__Output | null);
  /**
   * Make an earlier revision's document current again: undoes a rewrite or
   * edits as a new revision (the budget stays; every revision stays listed).
   */
  'restoreRevision'?: (_memoryd_v1_RestoreRevision__Output | null);
  /**
   * Exactly one edit.
   */
  'edit'?: "append"|"replaceSection"|"removeLine"|"setBudget"|"restoreRevision";
}
