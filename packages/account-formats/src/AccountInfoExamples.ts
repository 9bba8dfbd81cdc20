import type { AccountType } from "./ExternalAccountInfo.js"

/** A valid person for the currencies without extra requirements. */
export const person = { beneficiaryType: "INDIVIDUAL", fullName: "Ada Lovelace" } as const

/** A valid postal address. */
export const address = { line1: "12 St James's Square", city: "London", postalCode: "SW1Y 4LB", country: "GB" } as const

/** A real BOLT11 invoice (the specification's mainnet example without amount). */
export const invoice =
  "lnbc1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6twvus8g6rfwvs8qun0dfjkxaq9qrsgq357wnc5r2ueh7ck6q93dj32dlqnls087fxdwk8qakdyafkq3yap9us6v52vjjsrvywa6rt52cm9r9zqt8r2t7mlcwspyetp5h2tztugp9lfyql"

const bank = (fields: Record<string, unknown>) => ({ ...fields, beneficiary: person })

/** One valid `accountInfo` per account type, each as a client would send it. */
export const validAccountInfo: { readonly [K in AccountType]: Record<string, unknown> } = {
  AED_ACCOUNT: { iban: "AE070331234567890123456", swiftCode: "EBILAEAD", beneficiary: { ...person, address } },
  BDT_ACCOUNT: bank({ bankName: "Sonali Bank", accountNumber: "1234567890", branchCode: "12345" }),
  BRL_ACCOUNT: bank({ pixKey: "52998224725", pixKeyType: "CPF", taxId: "52998224725" }),
  BWP_ACCOUNT: bank({ phoneNumber: "+26771234567", provider: "Orange Money" }),
  CAD_ACCOUNT: bank({ bankCode: "001", branchCode: "00012", accountNumber: "1234567" }),
  COP_ACCOUNT: {
    bankName: "Bancolombia",
    phoneNumber: "+573001234567",
    beneficiary: { ...person, documentType: "CC", documentNumber: "1020304050" }
  },
  DKK_ACCOUNT: bank({ iban: "DK5000400440116243" }),
  EGP_ACCOUNT: bank({ bankName: "CIB", iban: "EG380019000500000000263180002" }),
  EUR_ACCOUNT: { iban: "DE89370400440532013000", beneficiary: { ...person, countryOfResidence: "DE" } },
  GBP_ACCOUNT: bank({ sortCode: "601613", accountNumber: "31926819" }),
  GHS_ACCOUNT: bank({ bankName: "GCB Bank", phoneNumber: "+233241234567" }),
  GTQ_ACCOUNT: {
    accountNumber: "1234567890",
    bankAccountType: "SAVINGS",
    bankName: "Banrural",
    beneficiary: { ...person, phoneNumber: "+50212345678", countryOfResidence: "GT" }
  },
  HKD_ACCOUNT: bank({ bankName: "HSBC", accountNumber: "123456789012", swiftCode: "HSBCHKHHHKH" }),
  HTG_ACCOUNT: bank({ phoneNumber: "+50937123456" }),
  IDR_ACCOUNT: bank({
    bankName: "BCA",
    accountNumber: "1234567890",
    swiftCode: "CENAIDJA",
    phoneNumber: "+6281234567890"
  }),
  INR_ACCOUNT: bank({ vpa: "ada@upi" }),
  JMD_ACCOUNT: {
    accountNumber: "1234567890",
    branchCode: "12345",
    bankAccountType: "CHECKING",
    bankName: "NCB",
    beneficiary: { ...person, phoneNumber: "+18765551234", address: { ...address, country: "JM" } }
  },
  KES_ACCOUNT: bank({ phoneNumber: "+254712345678", provider: "M-Pesa" }),
  MWK_ACCOUNT: bank({ phoneNumber: "+265991234567", provider: "Airtel Money" }),
  MXN_ACCOUNT: bank({ clabeNumber: "032180000118359719" }),
  MYR_ACCOUNT: bank({ bankName: "Maybank", accountNumber: "1234567890", swiftCode: "MBBEMYKL" }),
  NGN_ACCOUNT: bank({ accountNumber: "0123456789", bankName: "GTBank" }),
  PHP_ACCOUNT: bank({ bankName: "BDO Unibank", accountNumber: "001234567890" }),
  PKR_ACCOUNT: bank({ bankName: "Standard Chartered", iban: "PK36SCBL0000001123456702" }),
  RWF_ACCOUNT: bank({ phoneNumber: "+250781234567", provider: "MTN" }),
  SGD_ACCOUNT: bank({ accountNumber: "0123456789", swiftCode: "DBSSSGSG" }),
  SLV_ACCOUNT: bank({ bankName: "Banco Cuscatlan", accountNumber: "0123456789", bankAccountType: "CHECKING" }),
  THB_ACCOUNT: bank({ bankName: "Bangkok Bank", accountNumber: "1234567890", swiftCode: "BKKBTHBK" }),
  TZS_ACCOUNT: bank({ phoneNumber: "+255712345678", provider: "Vodacom" }),
  UGX_ACCOUNT: bank({ phoneNumber: "+256712345678", provider: "MTN" }),
  USD_ACCOUNT: {
    accountNumber: "123456789",
    routingNumber: "021000021",
    bankAccountType: "CHECKING",
    bankName: "Chase Bank",
    beneficiary: {
      ...person,
      birthDate: "1990-01-15",
      nationality: "US",
      address: { line1: "123 Main Street", city: "San Francisco", state: "CA", postalCode: "94105", country: "US" }
    }
  },
  VND_ACCOUNT: bank({ bankName: "Vietcombank", accountNumber: "1234567890", swiftCode: "BFTVVNVX" }),
  XAF_ACCOUNT: bank({ phoneNumber: "+237612345678", provider: "MTN", region: "CM" }),
  XOF_ACCOUNT: bank({ phoneNumber: "+221771234567", provider: "Orange Money", region: "SN" }),
  ZAR_ACCOUNT: bank({ accountNumber: "1234567890", bankName: "FNB" }),
  ZMW_ACCOUNT: bank({ phoneNumber: "+260971234567", provider: "Airtel Money" }),
  CNY_ACCOUNT: bank({ bankName: "ICBC", accountNumber: "6222021234567890123" }),
  ILS_ACCOUNT: bank({ iban: "IL620108000000099999999", bankName: "Bank Leumi" }),
  TRY_ACCOUNT: bank({ iban: "TR330006100519786457841326", bankName: "Garanti BBVA" }),
  SWIFT_ACCOUNT: bank({
    country: "NG",
    swiftCode: "GTBINGLA",
    bankName: "Guaranty Trust Bank",
    accountNumber: "1234567890"
  }),
  BASE_WALLET: { address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" },
  ETHEREUM_WALLET: { address: "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", vaspName: "Kraken" },
  LIGHTNING: { lightningAddress: "ada@getalby.com" },
  LIGHTNING_ACCOUNT: { invoice },
  POLYGON_WALLET: { address: "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB" },
  PLASMA_WALLET: { address: "0xd1220a0cf47c7b9be7a2e6ba89f429762e7b9adb" },
  ARBITRUM_WALLET: {
    address: "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    beneficiary: { ...person, countryOfResidence: "FR" }
  },
  SOLANA_WALLET: { address: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" },
  SPARK_WALLET: { address: "spark1pgss9z2gpzrnhztwy8ffs44x67angma38sqewwddhxlsk65t0c5d5576quly2j" },
  TRON_WALLET: { address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" }
}

/** The valid example of `accountType` with its discriminator, as a client sends it. */
export const exampleOf = (accountType: AccountType) => ({
  accountType,
  ...validAccountInfo[accountType]
})
