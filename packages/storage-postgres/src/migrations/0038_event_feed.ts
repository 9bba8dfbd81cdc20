import { statements } from "./internal/statements.js"

/**
 * The event feed (`Outbox.feed`, `GET /webhooks/events`): each outbox row records the id of the database transaction
 * that appended it (`xact`), and the feed reads a platform's events ordered by (`xact`, `seq`), only those whose
 * transaction is older than every transaction still running (`pg_snapshot_xmin`). Such a transaction has ended, so an
 * event becomes readable only once everything that sorts before it has (a `bigserial` alone would let a reader pass a
 * sequence number whose transaction commits later). The sandbox's `TEST` events are recorded in the outbox by the
 * send that delivers them, so the delivery trigger skips them.
 */
export default statements(
  (sql) => sql`ALTER TABLE outbox ADD COLUMN xact bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint)`,
  (sql) => sql`CREATE INDEX outbox_feed_idx ON outbox (platform_id, xact, seq)`,
  (sql) => sql`CREATE OR REPLACE FUNCTION payrail_outbox_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO jobs (id, kind, payload, platform_id, status, due_at, attempts, deduplication_key, created_at,
                        updated_at)
      SELECT 'Job:' || gen_random_uuid(), 'webhook.deliver', jsonb_build_object('eventId', e.id), e.platform_id,
             'PENDING', e.timestamp - p.clock_offset_seconds * interval '1 second', 0, e.id, e.timestamp, e.timestamp
        FROM appended e JOIN platforms p ON p.id = e.platform_id
       WHERE p.record->'config'->>'webhookEndpoint' IS NOT NULL AND e.type <> 'TEST'
      ON CONFLICT (kind, deduplication_key) WHERE status IN ('PENDING', 'RUNNING') DO NOTHING;
      RETURN NULL;
    END
    $$`
)
