/** The ledger fixtures, for the suites of other contexts. */
export * as LedgerFixtures from "./LedgerFixtures.js"
