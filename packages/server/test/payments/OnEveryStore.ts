import { afterAll, beforeAll, describe } from "vitest"
import { type StoreName, stores } from "../TestStores.js"
import { makePaymentApp, type PaymentApp, type PaymentAppOptions } from "./PaymentApp.js"

/** What `describeOnEveryStore` makes its app with: `makePaymentApp`'s options, and whether the worker runs throughout. */
export interface AppOptions extends PaymentAppOptions {
  /** Start the job worker with the app and keep it running, as a server does (otherwise it runs on `settle`). */
  readonly running?: boolean
}

/**
 * A `describe` named `<title> on <store>` for every store of `stores(prefix)`, with a payments app on a fresh store
 * of that kind made before its tests and disposed after them. `tests` declares the tests with that app (usable inside
 * tests and hooks, not while declaring) and the store's name.
 */
export const describeOnEveryStore = (
  title: string,
  prefix: string,
  { running = false, ...options }: AppOptions,
  tests: (app: PaymentApp, store: StoreName) => void
): void => {
  for (const store of stores(prefix)) {
    describe(`${title} on ${store.name}`, () => {
      let made: PaymentApp | undefined
      const current = (): PaymentApp => {
        if (made === undefined) throw new Error("the app is made before the tests run")
        return made
      }
      beforeAll(async () => {
        made = await makePaymentApp(await store.make(), options)
        if (running) made.startWorker()
      })
      afterAll(() => current().dispose())
      // Every field read through to the app once it is made.
      const app = new Proxy(Object.create(null) as PaymentApp, { get: (_, field) => Reflect.get(current(), field) })
      tests(app, store.name)
    })
  }
}
