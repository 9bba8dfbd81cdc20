import { statements } from "./internal/statements.js"

/**
 * Every event appended to the outbox of a platform that has a `webhookEndpoint` gets its delivery job
 * (`WebhookDeliveryJob`, kind `webhook.deliver`) in the same statement, so in the same unit of work: whatever path
 * appends the event (a repository, the ledger's recording function), its delivery exists exactly when it commits.
 * The job is due at the event's time (the domain's `Clock`), and de-duplicated by the event id.
 */
export default statements(
  (sql) => sql`CREATE FUNCTION payrail_outbox_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO jobs (id, kind, payload, platform_id, status, due_at, attempts, deduplication_key, created_at,
                        updated_at)
      SELECT 'Job:' || gen_random_uuid(), 'webhook.deliver', jsonb_build_object('eventId', e.id), e.platform_id,
             'PENDING', e.timestamp, 0, e.id, e.timestamp, e.timestamp
        FROM appended e JOIN platforms p ON p.id = e.platform_id
       WHERE p.record->'config'->>'webhookEndpoint' IS NOT NULL
      ON CONFLICT (kind, deduplication_key) WHERE status IN ('PENDING', 'RUNNING') DO NOTHING;
      RETURN NULL;
    END
    $$`,
  (sql) => sql`CREATE TRIGGER outbox_deliveries AFTER INSERT ON outbox REFERENCING NEW TABLE AS appended
    FOR EACH STATEMENT EXECUTE FUNCTION payrail_outbox_deliveries()`
)
