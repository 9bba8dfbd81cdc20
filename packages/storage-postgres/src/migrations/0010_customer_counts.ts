import { statements } from "./internal/statements.js"

/**
 * `customer_counts`: the counters behind `totalCount` of customer lists filtered by nothing but the customer type
 * (docs/storage.md), so a page does not count every customer of the platform. One row per (platform, customer
 * type, slot); a customer counts in the slot of its id's last character (`payrail_customer_count_slot`), so concurrent
 * creations on one platform rarely wait for one row. Filled from the customers already stored.
 */
export default statements(
  (sql) => sql`CREATE TABLE customer_counts (
      platform_id text NOT NULL,
      customer_type text NOT NULL,
      slot smallint NOT NULL,
      n bigint NOT NULL CHECK (n >= 0),
      PRIMARY KEY (platform_id, customer_type, slot)
    )`,
  // 1-16 for a last character that is a lowercase hex digit (a uuid's), 0 otherwise.
  (sql) => sql`CREATE FUNCTION payrail_customer_count_slot(p_id text) RETURNS smallint
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      RETURN position(right(p_id, 1) IN '0123456789abcdef')`,
  (sql) => sql`INSERT INTO customer_counts (platform_id, customer_type, slot, n)
      SELECT platform_id, customer_type, payrail_customer_count_slot(id), count(*) FROM customers
      GROUP BY platform_id, customer_type, payrail_customer_count_slot(id)`
)
