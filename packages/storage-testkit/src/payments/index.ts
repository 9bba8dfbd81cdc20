/** The payment fixtures, for the suites of other contexts. */
export * as PaymentFixtures from "./PaymentFixtures.js"
