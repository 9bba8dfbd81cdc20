import { Effect, Either, Layer, Option } from "effect"
import { Beneficiary, ExternalAccountInfo, NameVerificationProvider } from "@payrail/core"

type Info = ExternalAccountInfo.ExternalAccountInfo
type NameVerification = NameVerificationProvider.NameVerification

/** The beneficiary of a fiat account (the accounts a bank rail can check); none for wallets and Lightning. */
const fiatBeneficiaryOf = (info: Info) =>
  "beneficiary" in info && !ExternalAccountInfo.isWalletType(info.accountType) ? info.beneficiary : undefined

/**
 * A name a rail could plausibly return for a fuzzy match of `name`: a person's first name reduced to its initial
 * (`Ada Lovelace` → `A. Lovelace`), a business name in capitals without punctuation (`Acme, Inc.` → `ACME INC`);
 * always different from `name`.
 */
export const partialMatchName = (name: string, beneficiaryType: Beneficiary.BeneficiaryType): string => {
  const words = name.trim().split(/\s+/)
  const initialForm = words.length >= 2 ? [`${words[0]!.charAt(0)}.`, ...words.slice(1)].join(" ") : name
  const registryForm = name
    .toUpperCase()
    .replace(/[^\p{L}\p{N}\s]/gu, "")
    .replace(/\s+/g, " ")
    .trim()
  const candidates = beneficiaryType === "INDIVIDUAL" ? [initialForm, registryForm] : [registryForm, initialForm]
  return (
    [...candidates, name.toLowerCase()].find((candidate) => candidate !== name && candidate.length > 0) ?? `${name} Jr`
  )
}

const outcome = (
  status: NameVerificationProvider.BeneficiaryVerificationStatus,
  fullName?: string
): NameVerification =>
  fullName === undefined
    ? { beneficiaryVerificationStatus: status }
    : { beneficiaryVerificationStatus: status, beneficiaryVerifiedData: { fullName } }

/**
 * The sandbox name check, by the last three characters of the account identifier (`ExternalAccountInfo.identifierOf`):
 * `102` NOT_MATCHED, `103` PARTIAL_MATCH (with a plausibly different holder name), `104` PENDING, `105` fails with
 * `InvalidBankAccount`, `106` UNSUPPORTED, `107` CHECKED_BY_RECEIVING_FI, anything else MATCHED (with the
 * beneficiary's name as the holder name). Only MATCHED and PARTIAL_MATCH return `beneficiaryVerifiedData`. Wallets
 * and Lightning destinations get `None`: no name check applies to them.
 */
export const nameVerificationFor = (
  info: Info
): Either.Either<Option.Option<NameVerification>, NameVerificationProvider.InvalidBankAccount> => {
  const beneficiary = fiatBeneficiaryOf(info)
  if (beneficiary === undefined) return Either.right(Option.none())
  const name = Beneficiary.nameOf(beneficiary)
  switch (ExternalAccountInfo.identifierOf(info).slice(-3)) {
    case "102":
      return Either.right(Option.some(outcome("NOT_MATCHED")))
    case "103":
      return Either.right(Option.some(outcome("PARTIAL_MATCH", partialMatchName(name, beneficiary.beneficiaryType))))
    case "104":
      return Either.right(Option.some(outcome("PENDING")))
    case "105":
      return Either.left(NameVerificationProvider.InvalidBankAccount.of())
    case "106":
      return Either.right(Option.some(outcome("UNSUPPORTED")))
    case "107":
      return Either.right(Option.some(outcome("CHECKED_BY_RECEIVING_FI")))
    default:
      return Either.right(Option.some(outcome("MATCHED", name)))
  }
}

/** The sandbox name verification provider: `nameVerificationFor` behind the core port. Stateless. */
export const layer: Layer.Layer<NameVerificationProvider.NameVerificationProvider> = Layer.succeed(
  NameVerificationProvider.NameVerificationProvider,
  {
    verify: ({ accountInfo }) =>
      Either.match(nameVerificationFor(accountInfo), { onLeft: Effect.fail, onRight: Effect.succeed })
  }
)
