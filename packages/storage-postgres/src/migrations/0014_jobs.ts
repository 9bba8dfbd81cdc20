import { statements } from "./internal/statements.js"

/**
 * `jobs`: durable jobs (`PgJobs`). At most one unfinished job per `(kind, deduplication_key)`; the claim reads the
 * unfinished jobs in due order through `jobs_claim_idx`, and the earliest lease end through `jobs_lease_idx`. Every
 * insert notifies `payrail_jobs` when it commits, from whichever process makes it, so idle workers wake.
 */
export default statements(
  (sql) => sql`CREATE TABLE jobs (
      id text COLLATE "C" PRIMARY KEY,
      kind text NOT NULL,
      payload jsonb NOT NULL,
      platform_id text COLLATE "C",
      status text NOT NULL CHECK (status IN ('PENDING', 'RUNNING', 'DONE', 'DEAD')),
      due_at timestamptz NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      last_error text,
      lease_token text,
      lease_expires_at timestamptz,
      deduplication_key text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`,
  (sql) => sql`CREATE UNIQUE INDEX jobs_deduplication_key ON jobs (kind, deduplication_key)
    WHERE status IN ('PENDING', 'RUNNING')`,
  (sql) => sql`CREATE INDEX jobs_claim_idx ON jobs (due_at) WHERE status IN ('PENDING', 'RUNNING')`,
  (sql) => sql`CREATE INDEX jobs_lease_idx ON jobs (lease_expires_at) WHERE status = 'RUNNING'`,
  (sql) => sql`CREATE FUNCTION payrail_jobs_enqueued() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('payrail_jobs', 'enqueued');
      RETURN NULL;
    END
    $$`,
  (sql) => sql`CREATE TRIGGER jobs_enqueued AFTER INSERT ON jobs
    FOR EACH STATEMENT EXECUTE FUNCTION payrail_jobs_enqueued()`
)
