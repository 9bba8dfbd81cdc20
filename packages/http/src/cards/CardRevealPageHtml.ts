import type { CardIssuer } from "@payrail/core"
import { VerificationPageHtml } from "../verification/index.js"

const { escape } = VerificationPageHtml

const style = `
body{font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fff;margin:0;padding:1rem}
main{max-width:26rem}h1{font-size:1.25rem;margin:0 0 .75rem}
dl{margin:0;display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem}dt{font-weight:600}dd{margin:0}
.pan{font:1.25rem/1.4 ui-monospace,Menlo,Consolas,monospace;letter-spacing:.05em;word-spacing:.4em}
.mono{font-family:ui-monospace,Menlo,Consolas,monospace}p{margin:.75rem 0 0;color:#404040;font-size:.9rem}
`

/** The document: `lang`, a title, inline CSS only (the Content-Security-Policy allows nothing else). */
const layout = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
  `<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex"><link rel="icon" href="data:,">` +
  `<title>${escape(title)}</title><style>${style}</style></head><body><main>${body}</main></body></html>`

/** `4000 0012 3456 7899`: the number in groups of four, as printed on a card. */
export const grouped = (pan: string): string => pan.replace(/(.{4})(?=.)/g, "$1 ")

/** `MM/YY`. */
export const expiry = (month: number, year: number): string =>
  `${String(month).padStart(2, "0")}/${String(year % 100).padStart(2, "0")}`

const brandName = (brand: CardIssuer.SensitiveDetails["brand"]) => (brand === "VISA" ? "Visa" : "Mastercard")

/**
 * The card's details: brand, full number (grouped by four), expiry and CVC, as a labelled description list that a
 * screen reader reads in order. Nothing else of the cardholder.
 */
export const detailsPage = (details: CardIssuer.SensitiveDetails): string =>
  layout(
    "Card details",
    `<h1>${escape(brandName(details.brand))} card details</h1>` +
      `<dl>` +
      `<dt>Card number</dt><dd class="pan" translate="no">${escape(grouped(details.pan))}</dd>` +
      `<dt>Expiry</dt><dd class="mono" translate="no">${escape(expiry(details.expMonth, details.expYear))}</dd>` +
      `<dt>CVC</dt><dd class="mono" translate="no">${escape(details.cvc)}</dd>` +
      `</dl>` +
      `<p>This page can be opened once. Reloading it will not show these details again.</p>`
  )

/** The one answer for a link that is used, expired or unknown: nothing says which. */
export const unavailablePage = (): string =>
  layout(
    "Link unavailable",
    `<h1>This link cannot be opened again</h1>` +
      `<p>Card details links work once and only for a few minutes. Ask for a new link.</p>`
  )

/** An unexpected failure: a plain page, never the cause. */
export const failurePage = (): string =>
  layout("Something went wrong", `<h1>Something went wrong</h1><p>Please try again in a moment.</p>`)
