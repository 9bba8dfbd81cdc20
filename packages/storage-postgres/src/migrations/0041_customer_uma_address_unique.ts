import { statements } from "./internal/statements.js"

/**
 * One live customer per UMA address and platform: a partial unique index, so of concurrent creations with one
 * address exactly one succeeds (`CustomerRepo` turns the violation into `UmaAddressTaken`). A deleted customer's
 * address is free again, as its `platformCustomerId` is. Lookups keep `customers_uma_address_idx` (migration 0021),
 * which holds deleted customers too. A database where two live customers already share an address (possible only
 * through concurrent bulk imports before this migration) fails it with PostgreSQL's duplicate-key error naming them.
 */
export default statements(
  (sql) => sql`CREATE UNIQUE INDEX customers_uma_address_key ON customers (platform_id, (record->>'umaAddress'))
    WHERE NOT is_deleted AND record->>'umaAddress' IS NOT NULL`
)
