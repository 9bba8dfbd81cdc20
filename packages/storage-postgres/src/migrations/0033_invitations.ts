import { statements } from "./internal/statements.js"

/**
 * UMA invitations (`invitations`), by their code. Each record is kept encoded in `record`, with the columns a
 * guarded transition compares derived from it: `status` (`PENDING`, `CLAIMED`, `CANCELLED`; `EXPIRED` is read from
 * `expires_at`, never stored), the inviting `platform_id` (only it cancels) and `expires_at`.
 */
export default statements(
  (sql) => sql`CREATE TABLE invitations (
      code text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      status text NOT NULL,
      expires_at timestamptz,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`,
  (sql) => sql`CREATE INDEX invitations_platform_idx ON invitations (platform_id, created_at, code)`
)
