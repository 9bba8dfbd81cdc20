import { statements } from "./internal/statements.js"

/**
 * Jobs wake workers only when some are due soon: an insert notifies `payrail_jobs` only if one of its rows is due
 * within 30 seconds (`Jobs.wakeHorizon`). A job due later (a quote's expiry, a retry hours away) is found by the
 * workers' own timers: an idle worker never sleeps past the horizon, so it reads the next due time before then.
 * Before, each insert woke every worker of every process to look for work that was not due.
 */
export default statements(
  (sql) => sql`DROP TRIGGER jobs_enqueued ON jobs`,
  (sql) => sql`CREATE OR REPLACE FUNCTION payrail_jobs_enqueued() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM inserted WHERE due_at <= now() + interval '30 seconds') THEN
        PERFORM pg_notify('payrail_jobs', 'enqueued');
      END IF;
      RETURN NULL;
    END
    $$`,
  (sql) => sql`CREATE TRIGGER jobs_enqueued AFTER INSERT ON jobs REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION payrail_jobs_enqueued()`
)
