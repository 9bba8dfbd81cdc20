import * as SqlClient from "@effect/sql/SqlClient"
import { expect, layer } from "@effect/vitest"
import { ExternalAccountRepo, PaymentRails, type Storage } from "@payrail/core"
import { AccountFixtures, Fixtures } from "@payrail/storage-testkit"
import { Effect, type Layer, Option } from "effect"

/**
 * Records written by earlier versions, read by this one: a stored record that lacks a field added since decodes
 * with that field's default, without a migration. Registered once per backend.
 */
export const register = (backend: string, storage: Layer.Layer<Storage.Services | SqlClient.SqlClient, unknown>) =>
  layer(storage, { timeout: "120 seconds", excludeTestServices: true })(
    `storage-postgres stored records on ${backend}`,
    (it) => {
      it.effect("reads an external account stored before paymentRails existed with every rail of its type", () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const repo = yield* ExternalAccountRepo.ExternalAccountRepo
          const platform = yield* Fixtures.insertPlatform
          const customerId = AccountFixtures.customerId()
          const account = AccountFixtures.externalAccount({ customerId })
          yield* AccountFixtures.insert(platform.id, account)
          // The record as a version without paymentRails wrote it.
          yield* sql`UPDATE external_accounts SET record = record #- '{accountInfo,paymentRails}' WHERE id = ${account.id}`
          expect(
            yield* sql`SELECT record->'accountInfo' ? 'paymentRails' AS has FROM external_accounts WHERE id = ${account.id}`
          ).toEqual([{ has: false }])

          const found = yield* repo.findById(platform.id, account.id)
          const rails = Option.map(found, (read) =>
            "paymentRails" in read.accountInfo ? read.accountInfo.paymentRails : undefined
          )
          expect(rails).toEqual(Option.some(PaymentRails.railsOf("USD_ACCOUNT")))
          expect(found).toEqual(Option.some(account))
          const page = yield* repo.list(
            platform.id,
            { owner: "customers", customerId },
            { limit: 10, after: Option.none() }
          )
          expect(page.data).toEqual([account])
        })
      )
    }
  )
