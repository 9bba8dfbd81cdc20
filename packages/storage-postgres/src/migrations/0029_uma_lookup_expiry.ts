import { statements } from "./internal/statements.js"

/**
 * `uma_lookups_expiry_idx`: the hourly purge deletes expired receiver lookups earliest first
 * (`UmaLookupRepo.purgeExpired`), so it reads them in `expires_at` order instead of scanning the table.
 */
export default statements((sql) => sql`CREATE INDEX uma_lookups_expiry_idx ON uma_lookups (expires_at)`)
