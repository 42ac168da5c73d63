/** Options of the commit gate (commitInClient.ts, ownCommit.ts), which every pool client of ours reads. */
export interface CommitGateOptions {
  /** `unnamed` (DB_PREPARED_STATEMENTS): the statements that are their own commits (ownCommit.ts) are sent unnamed, as behind a transaction pooler; default `named`. */
  preparedStatements?: 'named' | 'unnamed';
  /** Bounds each COMMIT and ROLLBACK round trip (the config's DB_COMMIT_TIMEOUT_MS). */
  commitTimeoutMs: number;
  /** How long a statement that is its own commit may take to answer once cancelled at the deadline (the chain's cancelAcknowledgeMs). */
  cancelAcknowledgeMs: number;
  /** Test seam: runs just before COMMIT is sent (a slow or failing commit can be injected here). */
  beforeCommitSent?: () => Promise<void>;
}
