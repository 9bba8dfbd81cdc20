import { Schema } from "effect"
import { CountryCode, FieldFormat } from "@payrail/account-formats"

/**
 * The reference's enhanced-due-diligence (EDD) fields: their enums and the two field groups, one of an individual
 * customer (top-level fields of the record) and one of a business (fields of `businessInfo`). Every field is optional:
 * which ones a customer needs is the KYC provider's rule, not the schema's. Names and values are the reference's.
 */

/** Political exposure: `HIO` is the head of an international organization. */
export const PepStatus = Schema.Literal("NONE", "DOMESTIC", "FOREIGN", "HIO", "FAMILY_OR_ASSOCIATE")
export type PepStatus = typeof PepStatus.Type

/** Annual income of an individual, in USD-equivalent buckets. */
export const AnnualIncomeRange = Schema.Literal(
  "UNDER_50K",
  "RANGE_50K_100K",
  "RANGE_100K_250K",
  "RANGE_250K_1M",
  "OVER_1M"
)
export type AnnualIncomeRange = typeof AnnualIncomeRange.Type

/** Net worth of an individual, in USD-equivalent buckets. */
export const NetWorthRange = Schema.Literal(
  "UNDER_100K",
  "RANGE_100K_500K",
  "RANGE_500K_1M",
  "RANGE_1M_5M",
  "RANGE_5M_25M",
  "OVER_25M"
)
export type NetWorthRange = typeof NetWorthRange.Type

/** Expected number of transactions a month. */
export const ExpectedMonthlyTransactionCount = Schema.Literal(
  "COUNT_UNDER_10",
  "COUNT_10_TO_100",
  "COUNT_100_TO_500",
  "COUNT_500_TO_1000",
  "COUNT_OVER_1000"
)
export type ExpectedMonthlyTransactionCount = typeof ExpectedMonthlyTransactionCount.Type

/** Expected transaction volume a month, in USD-equivalent buckets. */
export const ExpectedMonthlyTransactionVolume = Schema.Literal(
  "VOLUME_UNDER_10K",
  "VOLUME_10K_TO_100K",
  "VOLUME_100K_TO_1M",
  "VOLUME_1M_TO_10M",
  "VOLUME_OVER_10M"
)
export type ExpectedMonthlyTransactionVolume = typeof ExpectedMonthlyTransactionVolume.Type

/** Where an individual's money for this account comes from (the flow of funds). */
export const IndividualSourceOfFundsCategory = Schema.Literal(
  "SALARY",
  "SELF_EMPLOYMENT_INCOME",
  "INVESTMENT_INCOME",
  "PENSION",
  "RENTAL_INCOME",
  "GIFT",
  "INHERITANCE",
  "LOAN",
  "SAVINGS",
  "SALE_OF_ASSETS",
  "OTHER"
)
export type IndividualSourceOfFundsCategory = typeof IndividualSourceOfFundsCategory.Type

/** Where a business's money comes from. */
export const SourceOfFundsCategory = Schema.Literal(
  "OPERATING_REVENUE",
  "INVESTMENT_INCOME",
  "LOANS",
  "VENTURE_CAPITAL",
  "PERSONAL_SAVINGS",
  "DONATIONS",
  "OTHER"
)
export type SourceOfFundsCategory = typeof SourceOfFundsCategory.Type

/** Where an individual's accumulated wealth comes from (the stock, not the flow). */
export const SourceOfWealthCategory = Schema.Literal(
  "SALARY",
  "BUSINESS_INCOME",
  "INVESTMENTS",
  "INHERITANCE",
  "PROPERTY_SALE",
  "GIFT",
  "RETIREMENT",
  "SAVINGS",
  "OTHER"
)
export type SourceOfWealthCategory = typeof SourceOfWealthCategory.Type

/** What the customer means to use the account for. */
export const PurposeOfAccount = Schema.Literal(
  "CONTRACTOR_PAYOUTS",
  "CREATOR_PAYOUTS",
  "EMPLOYEE_PAYOUTS",
  "MARKETPLACE_SELLER_PAYOUTS",
  "SUPPLIER_PAYMENTS",
  "CROSS_BORDER_B2B",
  "AR_AUTOMATION",
  "AP_AUTOMATION",
  "EMBEDDED_PAYMENTS",
  "PLATFORM_FEE_COLLECTION",
  "P2P_TRANSFERS",
  "CHARITABLE_DONATIONS",
  "OTHER"
)
export type PurposeOfAccount = typeof PurposeOfAccount.Type

/** The industry of a business (the NAICS sectors). */
export const BusinessType = Schema.Literal(
  "AGRICULTURE_FORESTRY_FISHING_AND_HUNTING",
  "MINING_QUARRYING_AND_OIL_AND_GAS_EXTRACTION",
  "UTILITIES",
  "CONSTRUCTION",
  "MANUFACTURING",
  "WHOLESALE_TRADE",
  "RETAIL_TRADE",
  "TRANSPORTATION_AND_WAREHOUSING",
  "INFORMATION",
  "FINANCE_AND_INSURANCE",
  "REAL_ESTATE_AND_RENTAL_AND_LEASING",
  "PROFESSIONAL_SCIENTIFIC_AND_TECHNICAL_SERVICES",
  "MANAGEMENT_OF_COMPANIES_AND_ENTERPRISES",
  "ADMINISTRATIVE_AND_SUPPORT_AND_WASTE_MANAGEMENT_AND_REMEDIATION_SERVICES",
  "EDUCATIONAL_SERVICES",
  "HEALTH_CARE_AND_SOCIAL_ASSISTANCE",
  "ARTS_ENTERTAINMENT_AND_RECREATION",
  "ACCOMMODATION_AND_FOOD_SERVICES",
  "OTHER_SERVICES",
  "PUBLIC_ADMINISTRATION"
)
export type BusinessType = typeof BusinessType.Type

/** A NAICS code: 2 to 6 digits. */
export const NaicsCode = Schema.String.pipe(
  Schema.pattern(/^\d{2,6}$/, { description: "a NAICS code of 2 to 6 digits" })
)

/** The free text that explains an `OTHER` category: 1 to 500 characters. */
export const OtherDescription = FieldFormat.Text(500)

/** A list of countries (ISO 3166-1 alpha-2). */
export const Countries = Schema.Array(CountryCode.CountryCode)

/**
 * The EDD fields of an individual customer, top-level fields of its record and of its create and update requests.
 * An update replaces each one it gives (a list as a whole).
 */
export const individualFields = {
  sourceOfFundsCategories: Schema.optional(Schema.Array(IndividualSourceOfFundsCategory)),
  /** Explains `OTHER` among `sourceOfFundsCategories`. */
  sourceOfFundsOtherDescription: Schema.optional(OtherDescription),
  sourceOfWealthCategories: Schema.optional(Schema.Array(SourceOfWealthCategory)),
  /** Explains `OTHER` among `sourceOfWealthCategories`. */
  sourceOfWealthOtherDescription: Schema.optional(OtherDescription),
  purposeOfAccount: Schema.optional(PurposeOfAccount),
  /** Explains a `purposeOfAccount` of `OTHER`. */
  purposeOfAccountOtherDescription: Schema.optional(OtherDescription),
  expectedMonthlyTransactionCount: Schema.optional(ExpectedMonthlyTransactionCount),
  expectedMonthlyTransactionVolume: Schema.optional(ExpectedMonthlyTransactionVolume),
  annualIncomeRange: Schema.optional(AnnualIncomeRange),
  netWorthRange: Schema.optional(NetWorthRange),
  pepStatus: Schema.optional(PepStatus)
}

/**
 * The EDD fields of a business, fields of `businessInfo` beside its identity (`legalName`, `taxId`, …). An update
 * replaces each one it gives (a list as a whole) and keeps the others.
 */
export const businessFields = {
  /** Countries the business operates in. */
  countriesOfOperation: Schema.optional(Countries),
  businessType: Schema.optional(BusinessType),
  purposeOfAccount: Schema.optional(PurposeOfAccount),
  /** The primary source of the business's funds, in words. */
  sourceOfFunds: Schema.optional(FieldFormat.Text(500)),
  expectedMonthlyTransactionCount: Schema.optional(ExpectedMonthlyTransactionCount),
  expectedMonthlyTransactionVolume: Schema.optional(ExpectedMonthlyTransactionVolume),
  /** Countries the business expects to send payments to. */
  expectedRecipientJurisdictions: Schema.optional(Countries),
  naicsCode: Schema.optional(NaicsCode),
  sourceOfFundsCategories: Schema.optional(Schema.Array(SourceOfFundsCategory)),
  /** Explains `OTHER` among `sourceOfFundsCategories`. */
  sourceOfFundsOtherDescription: Schema.optional(OtherDescription),
  /** Explains a `purposeOfAccount` of `OTHER`. */
  purposeOfAccountOtherDescription: Schema.optional(OtherDescription),
  /** Countries of the business's expected counterparties. */
  expectedCounterpartyCountries: Schema.optional(Countries),
  /** A director or authorised representative; the customer's `email` and `phoneNumber` are theirs. */
  primaryContactFirstName: Schema.optional(FieldFormat.Text(250)),
  primaryContactLastName: Schema.optional(FieldFormat.Text(250))
}
