import { Schema } from "effect"
import {
  AnyMobileNumber,
  MobileNumber,
  ProviderName,
  regionCallingCodes,
  XafRegion,
  XofRegion
} from "./AccountFields.js"
import { Individual } from "./Beneficiary.js"
import type { FiatAccountType } from "./PaymentRails.js"
import { fiat } from "./internal/fiatShape.js"

/**
 * The fiat `accountInfo` shapes paid out to mobile-money wallets: a mobile number of the currency's country (or, in
 * the CFA franc zones, of the declared `region`) and the operator (`provider`), with a required `beneficiary`.
 * Fields follow the public Grid API; the per-country number lengths are those of the countries' mobile plans.
 */

/** `BWP_ACCOUNT`: a Botswana mobile-money number (`+267`, 8 digits) and its operator. */
export const Bwp = fiat(
  "BWP_ACCOUNT",
  { phoneNumber: MobileNumber("267", 8), provider: ProviderName },
  Individual
).annotations({ identifier: "BwpAccountInfo" })

/** `HTG_ACCOUNT`: a Haitian mobile-money number (`+509`, 8 digits). */
export const Htg = fiat("HTG_ACCOUNT", { phoneNumber: MobileNumber("509", 8) }, Individual).annotations({
  identifier: "HtgAccountInfo"
})

const mobileMoney = <T extends FiatAccountType>(
  accountType: T,
  callingCode: string,
  digits: number,
  identifier: string
) =>
  fiat(accountType, { phoneNumber: MobileNumber(callingCode, digits), provider: ProviderName }, Individual).annotations(
    { identifier }
  )

/** `KES_ACCOUNT`: a Kenyan mobile-money number (`+254`, 9 digits) and its operator. */
export const Kes = mobileMoney("KES_ACCOUNT", "254", 9, "KesAccountInfo")

/** `MWK_ACCOUNT`: a Malawian mobile-money number (`+265`, 9 digits) and its operator. */
export const Mwk = mobileMoney("MWK_ACCOUNT", "265", 9, "MwkAccountInfo")

/** `RWF_ACCOUNT`: a Rwandan mobile-money number (`+250`, 9 digits) and its operator. */
export const Rwf = mobileMoney("RWF_ACCOUNT", "250", 9, "RwfAccountInfo")

/** `TZS_ACCOUNT`: a Tanzanian mobile-money number (`+255`, 9 digits) and its operator. */
export const Tzs = mobileMoney("TZS_ACCOUNT", "255", 9, "TzsAccountInfo")

/** `UGX_ACCOUNT`: a Ugandan mobile-money number (`+256`, 9 digits) and its operator. */
export const Ugx = mobileMoney("UGX_ACCOUNT", "256", 9, "UgxAccountInfo")

/** `ZMW_ACCOUNT`: a Zambian mobile-money number (`+260`, 9 digits) and its operator. */
export const Zmw = mobileMoney("ZMW_ACCOUNT", "260", 9, "ZmwAccountInfo")

type CfaAccount = { readonly phoneNumber: string; readonly region: XafRegion | XofRegion }

const cfaRule = <S extends Schema.Schema.AnyNoContext>(self: S) =>
  self.pipe(
    Schema.filter(
      (account) => {
        const { phoneNumber, region } = account as CfaAccount
        return phoneNumber.startsWith(`+${regionCallingCodes[region]}`)
      },
      { description: "an account whose phoneNumber has its region's calling code" }
    )
  )

/** `XAF_ACCOUNT`: a mobile-money number of the `region` (Cameroon or Congo) and its operator. */
export const Xaf = fiat(
  "XAF_ACCOUNT",
  { phoneNumber: AnyMobileNumber, provider: ProviderName, region: XafRegion },
  Individual
).pipe(cfaRule, Schema.annotations({ identifier: "XafAccountInfo" }))

/** `XOF_ACCOUNT`: a mobile-money number of the `region` (Benin, Côte d'Ivoire, Senegal, Togo) and its operator. */
export const Xof = fiat(
  "XOF_ACCOUNT",
  { phoneNumber: AnyMobileNumber, provider: ProviderName, region: XofRegion },
  Individual
).pipe(cfaRule, Schema.annotations({ identifier: "XofAccountInfo" }))
