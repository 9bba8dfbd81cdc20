import { statements } from "./internal/statements.js"

/**
 * Bulk customer imports (`bulk_imports`), the rows of their files in batches (`bulk_import_batches`, one row per
 * batch, dropped once the batch ran) and their failed rows (`bulk_import_errors`, one per line of the file). An
 * import keeps its record encoded in `record`; `status` and `next_batch` are the columns its guarded updates
 * compare, so of two workers running one batch exactly one records it.
 */
export default statements(
  (sql) => sql`CREATE TABLE bulk_imports (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      status text NOT NULL,
      next_batch integer NOT NULL,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`,
  (sql) => sql`CREATE TABLE bulk_import_batches (
      bulk_import_id text COLLATE "C" NOT NULL,
      batch integer NOT NULL,
      rows jsonb NOT NULL,
      PRIMARY KEY (bulk_import_id, batch)
    )`,
  (sql) => sql`CREATE TABLE bulk_import_errors (
      bulk_import_id text COLLATE "C" NOT NULL,
      line integer NOT NULL,
      record jsonb NOT NULL,
      PRIMARY KEY (bulk_import_id, line)
    )`
)
