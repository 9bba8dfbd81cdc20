import { statements } from "./internal/statements.js"

/**
 * Signals every change to `api_tokens` and `platforms` (not inserts: nothing cached depends on a row that did not
 * exist) on the `payrail_credentials` channel, from whichever process or tool makes it, when it commits. Servers
 * listen and stop trusting the credentials they cached (`PgCredentialChanges`).
 */
export default statements(
  (sql) => sql`CREATE FUNCTION payrail_credentials_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('payrail_credentials', 'changed');
      RETURN NULL;
    END
    $$`,
  (sql) => sql`CREATE TRIGGER api_tokens_changed AFTER UPDATE OR DELETE OR TRUNCATE ON api_tokens
    FOR EACH STATEMENT EXECUTE FUNCTION payrail_credentials_changed()`,
  (sql) => sql`CREATE TRIGGER platforms_changed AFTER UPDATE OR DELETE OR TRUNCATE ON platforms
    FOR EACH STATEMENT EXECUTE FUNCTION payrail_credentials_changed()`
)
