import { statements } from "./internal/statements.js"

/**
 * `platforms`: one row per platform, its record encoded in `record`.
 */
export default statements(
  (sql) => sql`CREATE TABLE platforms (
      id text COLLATE "C" PRIMARY KEY,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`
)
