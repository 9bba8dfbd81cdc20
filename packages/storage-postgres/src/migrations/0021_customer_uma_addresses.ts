import { statements } from "./internal/statements.js"

/**
 * Customers by UMA address (`CustomerRepo.findByUmaAddress`, for incoming UMA payments): an index on the address
 * each record carries, per platform, so the lookup reads one index entry whatever the number of customers.
 */
export default statements(
  (sql) => sql`CREATE INDEX customers_uma_address_idx ON customers (platform_id, (record->>'umaAddress'))
    WHERE record->>'umaAddress' IS NOT NULL`
)
