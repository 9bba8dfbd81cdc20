import { statements } from "./internal/statements.js"

/**
 * The ledger (docs/ledger.md). Only guarded accounts keep running balances; system accounts are never updated, and
 * no foreign key points at an account, which would lock the hot system rows (FOR KEY SHARE) on every posting.
 */
export default statements(
  (sql) => sql`CREATE TABLE ledger_accounts (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text NOT NULL,
      currency text NOT NULL,
      guarded boolean NOT NULL,
      posted_minor bigint,
      pending_debits_minor bigint,
      pending_credits_minor bigint,
      CONSTRAINT ledger_accounts_balances_check CHECK (CASE WHEN guarded
        THEN num_nulls(posted_minor, pending_debits_minor, pending_credits_minor) = 0
          AND posted_minor >= pending_debits_minor AND pending_debits_minor >= 0 AND pending_credits_minor >= 0
        ELSE num_nulls(posted_minor, pending_debits_minor, pending_credits_minor) = 3 END)
    )`,
  (sql) => sql`CREATE TABLE ledger_postings (
      id text COLLATE "C" PRIMARY KEY,
      platform_id text NOT NULL,
      idempotency_key text NOT NULL,
      fingerprint text NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'posted', 'released')),
      description text NOT NULL,
      created_at timestamptz NOT NULL,
      CONSTRAINT ledger_postings_idempotency_key UNIQUE (platform_id, idempotency_key)
    )`,
  (sql) => sql`CREATE TABLE ledger_entries (
      posting_id text COLLATE "C" NOT NULL,
      line integer NOT NULL,
      platform_id text NOT NULL,
      account_id text COLLATE "C" NOT NULL,
      currency text NOT NULL,
      amount_minor bigint NOT NULL CHECK (amount_minor <> 0),
      created_at timestamptz NOT NULL,
      PRIMARY KEY (posting_id, line)
    )`,
  // Keyed by (account, random posting id), so concurrent entries of one hot system account land on different
  // leaf pages rather than all on the rightmost one.
  (sql) =>
    sql`CREATE INDEX ledger_entries_account_idx ON ledger_entries (account_id, posting_id) INCLUDE (amount_minor)`,
  // Entries never change; a posting only moves from pending to posted or released, once.
  (sql) => sql`CREATE FUNCTION payrail_ledger_entries_immutable() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        RAISE EXCEPTION 'ledger entries are immutable' USING ERRCODE = 'PR002';
      END $fn$`,
  (sql) => sql`CREATE TRIGGER ledger_entries_immutable BEFORE UPDATE OR DELETE ON ledger_entries
      FOR EACH ROW EXECUTE FUNCTION payrail_ledger_entries_immutable()`,
  (sql) => sql`CREATE FUNCTION payrail_ledger_postings_settle_once() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF TG_OP = 'UPDATE' THEN
          IF OLD.status = 'pending' AND NEW.status IN ('posted', 'released')
            AND (NEW.id, NEW.platform_id, NEW.idempotency_key, NEW.fingerprint, NEW.description, NEW.created_at)
              IS NOT DISTINCT FROM (OLD.id, OLD.platform_id, OLD.idempotency_key, OLD.fingerprint, OLD.description, OLD.created_at)
          THEN
            RETURN NEW;
          END IF;
        END IF;
        RAISE EXCEPTION 'a ledger posting only moves from pending to posted or released' USING ERRCODE = 'PR002';
      END $fn$`,
  (sql) => sql`CREATE TRIGGER ledger_postings_settle_once BEFORE UPDATE OR DELETE ON ledger_postings
      FOR EACH ROW EXECUTE FUNCTION payrail_ledger_postings_settle_once()`,
  // One round trip per posting. Guarded rows are updated in account id order (byte order), so two postings that
  // touch the same accounts cannot deadlock; the guard and the change are one conditional UPDATE. A failed guard
  // raises inside the block, which rolls back the block's own writes only: the caller's unit of work stays usable.
  // Generic plans: with custom ones (the default for array parameters) every call would plan every statement again.
  (sql) => sql`CREATE FUNCTION payrail_ledger_post(
        p_platform_id text, p_idempotency_key text, p_fingerprint text, p_status text, p_description text,
        p_created_at timestamptz, p_account_ids text[], p_currencies text[], p_amounts bigint[]
      ) RETURNS TABLE (outcome text, posting_id text, detail text) LANGUAGE plpgsql
      SET plan_cache_mode = force_generic_plan AS $fn$
      #variable_conflict use_column
      DECLARE
        v_posting_id text;
        v_fingerprint text;
        v_unknown text;
        v_guarded text[];
        v_debits numeric[];
        v_credits numeric[];
      BEGIN
        IF p_status IS DISTINCT FROM 'posted' AND p_status IS DISTINCT FROM 'pending' THEN
          RETURN QUERY SELECT 'invalid', NULL::text, 'A posting is posted or pending';
          RETURN;
        END IF;
        IF EXISTS (SELECT 1 FROM unnest(p_currencies, p_amounts) AS u(currency, amount)
            GROUP BY u.currency HAVING sum(u.amount) IS DISTINCT FROM 0 OR bool_or(u.amount IS NULL OR u.amount = 0)) THEN
          RETURN QUERY SELECT 'invalid', NULL::text, 'The entries do not sum to zero per currency';
          RETURN;
        END IF;
        SELECT min(m.account_id) FILTER (WHERE NOT m.known),
            coalesce(array_agg(m.account_id ORDER BY m.account_id) FILTER (WHERE m.guarded), '{}'),
            coalesce(array_agg(m.debits ORDER BY m.account_id) FILTER (WHERE m.guarded), '{}'),
            coalesce(array_agg(m.credits ORDER BY m.account_id) FILTER (WHERE m.guarded), '{}')
          INTO v_unknown, v_guarded, v_debits, v_credits
          FROM (
            SELECT u.account_id COLLATE "C" AS account_id, bool_and(a.id IS NOT NULL) AS known,
              bool_or(a.guarded) AS guarded,
              coalesce(sum(-u.amount) FILTER (WHERE u.amount < 0), 0) AS debits,
              coalesce(sum(u.amount) FILTER (WHERE u.amount > 0), 0) AS credits
            FROM unnest(p_account_ids, p_currencies, p_amounts) AS u(account_id, currency, amount)
            LEFT JOIN ledger_accounts a
              ON a.id = u.account_id AND a.platform_id = p_platform_id AND a.currency = u.currency
            GROUP BY u.account_id COLLATE "C"
          ) m;
        IF v_unknown IS NOT NULL THEN
          RETURN QUERY SELECT 'unknown_account', NULL::text, v_unknown;
          RETURN;
        END IF;
        BEGIN
          v_posting_id := 'Posting:' || gen_random_uuid();
          INSERT INTO ledger_postings (id, platform_id, idempotency_key, fingerprint, status, description, created_at)
            VALUES (v_posting_id, p_platform_id, p_idempotency_key, p_fingerprint, p_status, p_description, p_created_at)
            ON CONFLICT (platform_id, idempotency_key) DO NOTHING;
          IF NOT FOUND THEN
            SELECT p.id, p.fingerprint INTO v_posting_id, v_fingerprint FROM ledger_postings p
              WHERE p.platform_id = p_platform_id AND p.idempotency_key = p_idempotency_key;
            RETURN QUERY SELECT CASE WHEN v_fingerprint = p_fingerprint THEN 'replayed' ELSE 'key_reused' END, v_posting_id, NULL::text;
            RETURN;
          END IF;
          FOR i IN 1 .. coalesce(array_length(v_guarded, 1), 0) LOOP
            UPDATE ledger_accounts a SET
              posted_minor = a.posted_minor + CASE WHEN p_status = 'posted' THEN v_credits[i] - v_debits[i] ELSE 0 END,
              pending_debits_minor = a.pending_debits_minor + CASE WHEN p_status = 'pending' THEN v_debits[i] ELSE 0 END,
              pending_credits_minor = a.pending_credits_minor + CASE WHEN p_status = 'pending' THEN v_credits[i] ELSE 0 END
            WHERE a.id = v_guarded[i] AND a.posted_minor - a.pending_debits_minor >= v_debits[i];
            IF NOT FOUND THEN
              RAISE EXCEPTION USING ERRCODE = 'PR001', MESSAGE = v_guarded[i];
            END IF;
          END LOOP;
          INSERT INTO ledger_entries (posting_id, line, platform_id, account_id, currency, amount_minor, created_at)
            SELECT v_posting_id, u.line, p_platform_id, u.account_id, u.currency, u.amount, p_created_at
            FROM unnest(p_account_ids, p_currencies, p_amounts) WITH ORDINALITY AS u(account_id, currency, amount, line);
        EXCEPTION WHEN SQLSTATE 'PR001' THEN
          RETURN QUERY SELECT 'insufficient', NULL::text, SQLERRM;
          RETURN;
        END;
        RETURN QUERY SELECT 'applied', v_posting_id, NULL::text;
      END $fn$`,
  // Confirm or release: the guarded status transition first (exactly one caller wins), then the guarded rows, in
  // the same order as posting takes them.
  (sql) => sql`CREATE FUNCTION payrail_ledger_settle(p_platform_id text, p_posting_id text, p_status text)
      RETURNS boolean LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $fn$
      DECLARE
        v_move record;
      BEGIN
        UPDATE ledger_postings p SET status = p_status
          WHERE p.id = p_posting_id AND p.platform_id = p_platform_id AND p.status = 'pending';
        IF NOT FOUND THEN
          RETURN false;
        END IF;
        FOR v_move IN
          SELECT e.account_id,
            coalesce(sum(-e.amount_minor) FILTER (WHERE e.amount_minor < 0), 0) AS debits,
            coalesce(sum(e.amount_minor) FILTER (WHERE e.amount_minor > 0), 0) AS credits
          FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id AND a.guarded
          WHERE e.posting_id = p_posting_id
          GROUP BY e.account_id
          ORDER BY e.account_id COLLATE "C"
        LOOP
          UPDATE ledger_accounts a SET
            posted_minor = a.posted_minor + CASE WHEN p_status = 'posted' THEN v_move.credits - v_move.debits ELSE 0 END,
            pending_debits_minor = a.pending_debits_minor - v_move.debits,
            pending_credits_minor = a.pending_credits_minor - v_move.credits
          WHERE a.id = v_move.account_id;
        END LOOP;
        RETURN true;
      END $fn$`
)
