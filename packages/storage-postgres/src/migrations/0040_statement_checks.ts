import { statements } from "./internal/statements.js"

/**
 * `payrail_fail(code, detail)`: raises SQLSTATE `P0001` with `code` as the message and `detail` as the detail. A
 * write that must refuse what it finds (a ledger account opened again with another spec) calls it from a `CASE`, so
 * it can be one step of a statement that combines several writes (`WriteBehind`) instead of a read after it.
 */
export default statements(
  (sql) => sql`CREATE FUNCTION payrail_fail(p_code text, p_detail text) RETURNS boolean
      LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = p_code, DETAIL = p_detail;
    END
    $$`
)
