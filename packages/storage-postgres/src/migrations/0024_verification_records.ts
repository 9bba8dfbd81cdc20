import { statements } from "./internal/statements.js"

/**
 * Verification records (issue 12), each row scoped by `platform_id`, each record encoded in `record`.
 *
 * `documents`: document records (not their files), with the sniffed content type, the size, the time a
 * verification submitted the document (`submitted_at`, null until then) and a version for compare-and-set
 * replacement; listed newest first per platform or per holder, and oldest first per holder for a verification.
 *
 * `beneficial_owners`: a business customer's owners, with the write-only tax `identifier` kept apart from the
 * record and a version for compare-and-set updates; listed per customer.
 */
export default statements(
  (sql) => sql`CREATE TABLE documents (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      document_holder text COLLATE "C" NOT NULL,
      record jsonb NOT NULL,
      content_type text NOT NULL,
      size_bytes integer NOT NULL,
      submitted_at timestamptz,
      version integer NOT NULL,
      created_at timestamptz NOT NULL
    )`,
  (sql) => sql`CREATE INDEX documents_platform_idx ON documents (platform_id, created_at, id)`,
  (sql) => sql`CREATE INDEX documents_holder_idx ON documents (platform_id, document_holder, created_at, id)`,
  (sql) => sql`CREATE TABLE beneficial_owners (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      customer_id text COLLATE "C" NOT NULL,
      record jsonb NOT NULL,
      identifier text NOT NULL,
      version integer NOT NULL,
      created_at timestamptz NOT NULL
    )`,
  (sql) =>
    sql`CREATE INDEX beneficial_owners_customer_idx ON beneficial_owners (platform_id, customer_id, created_at, id)`
)
