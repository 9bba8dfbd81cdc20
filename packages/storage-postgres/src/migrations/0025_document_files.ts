import { statements } from "./internal/statements.js"

/**
 * `document_files` and `document_file_chunks`: the bytes of document files (`DocumentStore`), in chunks of at most
 * 256 KiB so that neither the server nor the database holds a whole file. A file is staged (`document_id` null,
 * invisible to reads) while its chunks are written outside any transaction, then attached to its document in the
 * transaction that stores the record; a staged file never attached is purged by age (`document_files_staged_idx`).
 * A document has at most one attached file (`document_files_document_idx`).
 */
export default statements(
  (sql) => sql`CREATE TABLE document_files (
      upload_id text COLLATE "C" PRIMARY KEY,
      platform_id text COLLATE "C" NOT NULL,
      document_id text COLLATE "C",
      created_at timestamptz NOT NULL
    )`,
  (sql) => sql`CREATE UNIQUE INDEX document_files_document_idx ON document_files (platform_id, document_id)
      WHERE document_id IS NOT NULL`,
  (sql) => sql`CREATE INDEX document_files_staged_idx ON document_files (created_at) WHERE document_id IS NULL`,
  (sql) => sql`CREATE TABLE document_file_chunks (
      upload_id text COLLATE "C" NOT NULL REFERENCES document_files (upload_id) ON DELETE CASCADE,
      seq integer NOT NULL,
      bytes bytea NOT NULL,
      PRIMARY KEY (upload_id, seq)
    )`
)
