// Original file: ../../proto/memoryd/v1/memory.proto

import type { RecallFilter as _memoryd_v1_RecallFilter, RecallFilter__Output as _memoryd_v1_RecallFilter__Output } from '../../memoryd/v1/RecallFilter';
import type { RankingMode as _memoryd_v1_RankingMode, RankingMode__Output as _memoryd_v1_RankingMode__Output } from '../../memoryd/v1/RankingMode';
import type { RecallArms as _memoryd_v1_RecallArms, RecallArms__Output as _memoryd_v1_RecallArms__Output } from '../../memoryd/v1/RecallArms';

/**
 * RecallRequest searches the visible archive.
 */
export interface RecallRequest {
  /**
   * The acting agent. Required.
   */
  'agentId'?: (string);
  /**
   * The contact being served; its SCOPE_END_USER memories become visible.
   */
  'endUserId'?: (string);
  /**
   * Free text, 1 to 4,096 chars. Quotes, operators and punctuation are
   * plain text: they never form phrase or boolean queries.
   */
  'query'?: (string);
  /**
   * Number of hits, 1 to 100; 0: the agent's `recall.limit` setting
   * (GetEffectiveConfig; 10 unless the tenant or agent set another).
   */
  'limit'?: (number);
  /**
   * Optional filters, applied inside both arms.
   */
  'filter'?: (_memoryd_v1_RecallFilter | null);
  /**
   * Default RANKING_MODE_RELEVANCE.
   */
  'ranking'?: (_memoryd_v1_RankingMode);
  /**
   * Drop hits whose `score` is below this, in [0, 1]. Unset: the agent's
   * `recall.min_score` setting (0, keep all, unless the tenant or agent set
   * another); set it to 0 explicitly to keep all whatever the setting.
   * Applies in every ranking mode, after ranking: e.g. 0.5 keeps hits that
   * contain at least half of the query's words or whose embedding is at least
   * halfway between noise and a strong match (see RecallHit.score). Fewer
   * than `limit` hits may remain.
   */
  'minScore'?: (number | string);
  /**
   * Only memories whose salience is at least this, in [0, 1]; default 0.
   * Applied inside both arms in every ranking mode.
   */
  'minSalience'?: (number | string);
  /**
   * Optional precomputed query vector from the server's embedding model (its
   * dimension, e.g. 384); it is L2-normalised on arrival. Empty: the server
   * embeds `query`. `query` is still required for the full-text arm.
   */
  'queryEmbedding'?: (number | string)[];
  /**
   * Default RECALL_ARMS_BOTH; one arm alone shows what each contributes.
   */
  'arms'?: (_memoryd_v1_RecallArms);
  /**
   * Return a trace of the ranking in RecallResponse.trace: every candidate of both arms with its
   * ranks, raw scores, fused sum, evidence, final score and outcome (operator role and above;
   * PERMISSION_DENIED for agent keys). A Recall without it builds no trace and costs nothing more.
   */
  'explain'?: (boolean);
  /**
   * Memory ids the trace accounts for even when they were no candidate (why a memory the caller
   * expected was left out: not visible, filtered, not found by either arm, below the cut, under
   * min_score). At most 20; needs explain.
   */
  'explainIds'?: (string)[];
  '_minScore'?: "minScore";
}

/**
 * RecallRequest searches the visible archive.
 */
export interface RecallRequest__Output {
  /**
   * The acting agent. Required.
   */
  'agentId': (string);
  /**
   * The contact being served; its SCOPE_END_USER memories become visible.
   */
  'endUserId': (string);
  /**
   * Free text, 1 to 4,096 chars. Quotes, operators and punctuation are
   * plain text: they never form phrase or boolean queries.
   */
  'query': (string);
  /**
   * Number of hits, 1 to 100; 0: the agent's `recall.limit` setting
   * (GetEffectiveConfig; 10 unless the tenant or agent set another).
   */
  'limit': (number);
  /**
   * Optional filters, applied inside both arms.
   */
  'filter': (_memoryd_v1_RecallFilter__Output | null);
  /**
   * Default RANKING_MODE_RELEVANCE.
   */
  'ranking': (_memoryd_v1_RankingMode__Output);
  /**
   * Drop hits whose `score` is below this, in [0, 1]. Unset: the agent's
   * `recall.min_score` setting (0, keep all, unless the tenant or agent set
   * another); set it to 0 explicitly to keep all whatever the setting.
   * Applies in every ranking mode, after ranking: e.g. 0.5 keeps hits that
   * contain at least half of the query's words or whose embedding is at least
   * halfway between noise and a strong match (see RecallHit.score). Fewer
   * than `limit` hits may remain.
   */
  'minScore'?: (number);
  /**
   * Only memories whose salience is at least this, in [0, 1]; default 0.
   * Applied inside both arms in every ranking mode.
   */
  'minSalience': (number);
  /**
   * Optional precomputed query vector from the server's embedding model (its
   * dimension, e.g. 384); it is L2-normalised on arrival. Empty: the server
   * embeds `query`. `query` is still required for the full-text arm.
   */
  'queryEmbedding': (number)[];
  /**
   * Default RECALL_ARMS_BOTH; one arm alone shows what each contributes.
   */
  'arms': (_memoryd_v1_RecallArms__Output);
  /**
   * Return a trace of the ranking in RecallResponse.trace: every candidate of both arms with its
   * ranks, raw scores, fused sum, evidence, final score and outcome (operator role and above;
   * PERMISSION_DENIED for agent keys). A Recall without it builds no trace and costs nothing more.
   */
  'explain': (boolean);
  /**
   * Memory ids the trace accounts for even when they were no candidate (why a memory the caller
   * expected was left out: not visible, filtered, not found by either arm, below the cut, under
   * min_score). At most 20; needs explain.
   */
  'explainIds': (string)[];
  '_minScore'?: "minScore";
}
