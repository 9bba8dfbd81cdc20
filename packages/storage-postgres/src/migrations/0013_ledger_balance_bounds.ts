import { statements } from "./internal/statements.js"

/**
 * Every balance of a guarded ledger account stays within 2^53-1 minor units (`Ledger.balanceMinorMax`, the largest
 * amount the API carries exactly), and so does posted plus pending credits, so that confirming a reservation never
 * passes it: the CHECK constraint `ledger_accounts_balance_bounds`. `payrail_ledger_post` answers a posting that
 * would pass it (or overflow `bigint` on the way) with the outcome `balance_limit`, caught inside its block like a
 * failed guard: nothing applies and the caller's unit of work stays usable. Its arguments and result type are
 * those of `0009_ledger_post_balances`; a server still running the code before this migration fails such a
 * posting as before, on its answer.
 */
export default statements(
  (sql) => sql`ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_balance_bounds CHECK (
      posted_minor BETWEEN -9007199254740991 AND 9007199254740991
      AND pending_debits_minor BETWEEN -9007199254740991 AND 9007199254740991
      AND pending_credits_minor BETWEEN -9007199254740991 AND 9007199254740991
      AND posted_minor::numeric + pending_credits_minor::numeric <= 9007199254740991
    )`,
  // As in 0009_ledger_post_balances, with one more handler: the balance limit (or a bigint overflow, which only a
  // balance can reach here: the amounts are bigint arguments and their sums numeric) answers 'balance_limit'.
  (sql) => sql`CREATE OR REPLACE FUNCTION payrail_ledger_post(
        p_platform_id text, p_idempotency_key text, p_fingerprint text, p_status text, p_description text,
        p_created_at timestamptz, p_account_ids text[], p_currencies text[], p_amounts bigint[]
      ) RETURNS TABLE (outcome text, posting_id text, detail text, balance_account_ids text[],
        balance_posted_minor bigint[], balance_pending_debits_minor bigint[], balance_pending_credits_minor bigint[])
      LANGUAGE plpgsql ROWS 1 SET plan_cache_mode = force_generic_plan AS $fn$
      #variable_conflict use_column
      DECLARE
        v_posting_id text;
        v_fingerprint text;
        v_unknown text;
        v_guarded text[];
        v_debits numeric[];
        v_credits numeric[];
        v_posted bigint[] := '{}';
        v_pending_debits bigint[] := '{}';
        v_pending_credits bigint[] := '{}';
        v_row record;
        v_constraint text;
      BEGIN
        IF p_status IS DISTINCT FROM 'posted' AND p_status IS DISTINCT FROM 'pending' THEN
          RETURN QUERY SELECT 'invalid', NULL::text, 'A posting is posted or pending', '{}'::text[], '{}'::bigint[], '{}'::bigint[], '{}'::bigint[];
          RETURN;
        END IF;
        IF EXISTS (SELECT 1 FROM unnest(p_currencies, p_amounts) AS u(currency, amount)
            GROUP BY u.currency HAVING sum(u.amount) IS DISTINCT FROM 0 OR bool_or(u.amount IS NULL OR u.amount = 0)) THEN
          RETURN QUERY SELECT 'invalid', NULL::text, 'The entries do not sum to zero per currency', '{}'::text[], '{}'::bigint[], '{}'::bigint[], '{}'::bigint[];
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
          RETURN QUERY SELECT 'unknown_account', NULL::text, v_unknown, '{}'::text[], '{}'::bigint[], '{}'::bigint[], '{}'::bigint[];
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
            IF v_fingerprint IS DISTINCT FROM p_fingerprint THEN
              RETURN QUERY SELECT 'key_reused', v_posting_id, NULL::text, '{}'::text[], '{}'::bigint[], '{}'::bigint[], '{}'::bigint[];
              RETURN;
            END IF;
            -- A replay: the same accounts (same fingerprint), read as they are now, without locking them.
            RETURN QUERY SELECT 'replayed', v_posting_id, NULL::text,
                coalesce(array_agg(a.id::text ORDER BY a.id), '{}'), coalesce(array_agg(a.posted_minor ORDER BY a.id), '{}'),
                coalesce(array_agg(a.pending_debits_minor ORDER BY a.id), '{}'),
                coalesce(array_agg(a.pending_credits_minor ORDER BY a.id), '{}')
              FROM ledger_accounts a WHERE a.id = ANY (v_guarded);
            RETURN;
          END IF;
          FOR i IN 1 .. coalesce(array_length(v_guarded, 1), 0) LOOP
            UPDATE ledger_accounts a SET
              posted_minor = a.posted_minor + CASE WHEN p_status = 'posted' THEN v_credits[i] - v_debits[i] ELSE 0 END,
              pending_debits_minor = a.pending_debits_minor + CASE WHEN p_status = 'pending' THEN v_debits[i] ELSE 0 END,
              pending_credits_minor = a.pending_credits_minor + CASE WHEN p_status = 'pending' THEN v_credits[i] ELSE 0 END
            WHERE a.id = v_guarded[i] AND a.posted_minor - a.pending_debits_minor >= v_debits[i]
            RETURNING a.posted_minor, a.pending_debits_minor, a.pending_credits_minor INTO v_row;
            IF NOT FOUND THEN
              RAISE EXCEPTION USING ERRCODE = 'PR001', MESSAGE = v_guarded[i];
            END IF;
            v_posted := v_posted || v_row.posted_minor;
            v_pending_debits := v_pending_debits || v_row.pending_debits_minor;
            v_pending_credits := v_pending_credits || v_row.pending_credits_minor;
          END LOOP;
          INSERT INTO ledger_entries (posting_id, line, platform_id, account_id, currency, amount_minor, created_at)
            SELECT v_posting_id, u.line, p_platform_id, u.account_id, u.currency, u.amount, p_created_at
            FROM unnest(p_account_ids, p_currencies, p_amounts) WITH ORDINALITY AS u(account_id, currency, amount, line);
        EXCEPTION WHEN SQLSTATE 'PR001' THEN
          RETURN QUERY SELECT 'insufficient', NULL::text, SQLERRM, '{}'::text[], '{}'::bigint[], '{}'::bigint[], '{}'::bigint[];
          RETURN;
        WHEN check_violation OR numeric_value_out_of_range THEN
          GET STACKED DIAGNOSTICS v_constraint = CONSTRAINT_NAME;
          IF SQLSTATE = '23514' AND v_constraint IS DISTINCT FROM 'ledger_accounts_balance_bounds' THEN
            RAISE;
          END IF;
          RETURN QUERY SELECT 'balance_limit', NULL::text, NULL::text, '{}'::text[], '{}'::bigint[], '{}'::bigint[], '{}'::bigint[];
          RETURN;
        END;
        RETURN QUERY SELECT 'applied', v_posting_id, NULL::text, v_guarded, v_posted, v_pending_debits, v_pending_credits;
      END $fn$`
)
