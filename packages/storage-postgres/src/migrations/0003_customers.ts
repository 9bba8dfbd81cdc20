import { customersPlatformCustomerIdKey } from "../customers/internal/constraints.js"
import { statements } from "./internal/statements.js"

/**
 * `customers`: one row per customer; `platform_customer_id` is unique per platform (the constraint whose
 * violation `PgCustomerRepo` maps to `PlatformCustomerIdTaken`), `version` guards updates.
 */
export default statements(
  (sql) => sql`CREATE TABLE customers (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text NOT NULL,
      platform_customer_id text NOT NULL,
      customer_type text NOT NULL,
      region text,
      email text,
      identifier text,
      record jsonb NOT NULL,
      version integer NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CONSTRAINT ${sql(customersPlatformCustomerIdKey)} UNIQUE (platform_id, platform_customer_id)
    )`,
  (sql) => sql`CREATE INDEX customers_page_idx ON customers (platform_id, created_at DESC, id DESC)`
)
