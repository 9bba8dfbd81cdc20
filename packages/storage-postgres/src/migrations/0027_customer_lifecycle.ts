import { customersPlatformCustomerIdKey } from "../customers/internal/constraints.js"
import { statements } from "./internal/statements.js"

/**
 * Deleting customers and verifying their contacts.
 * - `customers.is_deleted` mirrors the record's `isDeleted`, so lists leave deleted customers out by a column and
 *   `platform_customer_id` is unique among live customers only: the constraint becomes a partial unique index of
 *   the same name (whose violation `PgCustomerRepo` maps to `PlatformCustomerIdTaken`), so a deleted customer's
 *   `platformCustomerId` can be reused.
 * - `contact_codes`: the outstanding verification code of each (customer, channel) as its record (a digest of the
 *   code, never the code, with its expiry and wrong attempts); a new code replaces the earlier one, a confirmed
 *   one is deleted.
 */
export default statements(
  (sql) => sql`ALTER TABLE customers ADD COLUMN is_deleted boolean NOT NULL DEFAULT false`,
  (sql) => sql`UPDATE customers SET is_deleted = true WHERE (record->>'isDeleted')::boolean`,
  (sql) => sql`ALTER TABLE customers DROP CONSTRAINT ${sql(customersPlatformCustomerIdKey)}`,
  (sql) => sql`CREATE UNIQUE INDEX ${sql(customersPlatformCustomerIdKey)}
      ON customers (platform_id, platform_customer_id) WHERE NOT is_deleted`,
  (sql) => sql`CREATE TABLE contact_codes (
      platform_id text NOT NULL,
      customer_id text COLLATE "C" NOT NULL,
      channel text NOT NULL,
      id text COLLATE "C" NOT NULL,
      record jsonb NOT NULL,
      PRIMARY KEY (platform_id, customer_id, channel)
    )`
)
