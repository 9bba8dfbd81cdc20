import { stablecoinsNetworkTokenKey } from "../stablecoins/internal/constraints.js"
import { statements } from "./internal/statements.js"

/**
 * A token is registered once per platform: `stablecoins_network_token_key` makes `(platform_id, network,
 * networkTokenIdentifier)` of the encoded record unique, so of concurrent registrations of one token exactly one
 * inserts and `PgStablecoinRepo` maps the others' violation to `StablecoinAlreadyRegistered`. A store that already
 * holds two registrations of one token (possible before this migration) fails it with a unique violation and
 * applies nothing: the operator decides which of the two stays before migrating.
 */
export default statements(
  (sql) => sql`CREATE UNIQUE INDEX ${sql(stablecoinsNetworkTokenKey)}
      ON stablecoins (platform_id, (record->>'network'), (record->>'networkTokenIdentifier'))`
)
