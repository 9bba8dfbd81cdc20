import { statements } from "./internal/statements.js"

/**
 * Sandbox clocks: `platforms.clock_offset_seconds` is how far the platform's clock runs ahead of real time
 * (`PlatformRepo.advanceClock`; the `platforms_changed` trigger signals an advance like any platform change). Jobs
 * keep real due times: the outbox's delivery jobs (migration 0016) are now due at the event's time less its
 * platform's offset, since events carry their platform's time.
 */
export default statements(
  (sql) => sql`ALTER TABLE platforms ADD COLUMN clock_offset_seconds bigint NOT NULL DEFAULT 0
    CHECK (clock_offset_seconds >= 0)`,
  (sql) => sql`CREATE OR REPLACE FUNCTION payrail_outbox_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO jobs (id, kind, payload, platform_id, status, due_at, attempts, deduplication_key, created_at,
                        updated_at)
      SELECT 'Job:' || gen_random_uuid(), 'webhook.deliver', jsonb_build_object('eventId', e.id), e.platform_id,
             'PENDING', e.timestamp - p.clock_offset_seconds * interval '1 second', 0, e.id, e.timestamp, e.timestamp
        FROM appended e JOIN platforms p ON p.id = e.platform_id
       WHERE p.record->'config'->>'webhookEndpoint' IS NOT NULL
      ON CONFLICT (kind, deduplication_key) WHERE status IN ('PENDING', 'RUNNING') DO NOTHING;
      RETURN NULL;
    END
    $$`
)
