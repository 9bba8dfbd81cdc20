import { VerificationPageHtml } from "../verification/index.js"

const { escape } = VerificationPageHtml

/** The console's stylesheet, served beside the page (the policy allows no inline style). */
export const stylesheet = `
:root{color-scheme:light;--ink:#1a1a1a;--muted:#555;--line:#d0d4da;--accent:#0b57d0;--bad:#a50e0e;--ok:#0d652d}
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,sans-serif;color:var(--ink);background:#fff;margin:0}
a{color:var(--accent)}
.skip{position:absolute;left:-999px}.skip:focus{left:.5rem;top:.5rem;background:#fff;padding:.25rem .5rem;z-index:2}
header{display:flex;flex-wrap:wrap;align-items:baseline;gap:.5rem 1.5rem;padding:.75rem 1rem;border-bottom:1px solid var(--line)}
header h1{font-size:1.1rem;margin:0}header p{margin:0;color:var(--muted)}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem;list-style:none;margin:0;padding:0}
nav a{display:block;padding:.3rem .6rem;border-radius:4px;text-decoration:none}
nav a[aria-current=page]{background:var(--accent);color:#fff}
main{padding:1rem;max-width:80rem}
h2{font-size:1.2rem;margin:0 0 .75rem}h3{font-size:1rem;margin:1.25rem 0 .5rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{border-bottom:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top}
th{font-weight:600;background:#f5f6f8}td.num{text-align:right;font-variant-numeric:tabular-nums}
code,pre,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem}
pre{background:#f5f6f8;padding:.5rem;overflow:auto;max-height:24rem;white-space:pre-wrap;word-break:break-all}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:.5rem 0}dt{font-weight:600}dd{margin:0}
form{display:grid;gap:.5rem;max-width:28rem;min-width:0;border:1px solid var(--line);border-radius:6px;padding:.75rem;margin:0 0 1rem}
fieldset{border:0;padding:0;margin:0;display:grid;gap:.5rem;min-width:0}legend{font-weight:600;padding:0;margin-bottom:.25rem}
label{display:grid;gap:.15rem;font-weight:500;min-width:0}
input,select{font:inherit;padding:.3rem .4rem;border:1px solid #8a9099;border-radius:4px;width:100%;min-width:0}
button{font:inherit;padding:.35rem .8rem;border:1px solid var(--accent);background:var(--accent);color:#fff;border-radius:4px;cursor:pointer;justify-self:start}
button.secondary{background:#fff;color:var(--accent)}
:focus-visible{outline:3px solid #f9ab00;outline-offset:2px}
.status{font-weight:600}.bad{color:var(--bad)}.ok{color:var(--ok)}.muted{color:var(--muted)}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(22rem,100%),1fr));gap:1rem;align-items:start}
.grid>form{max-width:none}td.mono{word-break:break-all}
[role=status]{min-height:1.5rem}
`

/** The document: `lang`, a title, the served stylesheet (and script, when given); no inline script or style. */
const layout = (title: string, body: string, script: boolean): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
  `<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer">` +
  `<meta name="robots" content="noindex"><link rel="icon" href="data:,"><title>${escape(title)}</title>` +
  // Relative to the page, so the console works under whatever prefix the API is mounted at.
  `<link rel="stylesheet" href="console/app.css">${script ? `<script src="console/app.js" defer></script>` : ""}` +
  `</head><body>${body}</body></html>`

/** The views, in the order the navigation lists them: the hash each one answers to and its name. */
export const views = [
  ["customers", "Customers"],
  ["quotes", "Quotes"],
  ["transactions", "Transactions"],
  ["webhooks", "Webhook deliveries"],
  ["clock", "Sandbox clock"],
  ["simulators", "Simulators"]
] as const

/**
 * The console's shell: a skip link, a banner naming the platform, the navigation landmark and the main region the
 * script renders each view into (announced politely). Everything shown comes from the API, fetched by the script.
 */
export const consolePage = (input: { readonly platformName: string; readonly apiBasePath: string }): string =>
  layout(
    `Sandbox console: ${input.platformName}`,
    `<a class="skip" href="#view">Skip to content</a>` +
      `<header><h1>Payrail sandbox console</h1><p>Platform: <strong>${escape(input.platformName)}</strong></p>` +
      `<nav aria-label="Console views"><ul>` +
      views.map(([hash, name]) => `<li><a href="#${hash}">${escape(name)}</a></li>`).join("") +
      `</ul></nav></header>` +
      `<main id="view" tabindex="-1" data-api="${escape(input.apiBasePath.replace(/^\//, ""))}" aria-live="polite">` +
      `<p>Loading…</p><noscript>The console needs JavaScript to load the platform's data.</noscript></main>`,
    true
  )

/** A refusal (sign-in needed, production platform, missing permission, failure): a heading and one sentence. */
export const refusalPage = (title: string, message: string): string =>
  layout(title, `<main><h1>${escape(title)}</h1><p>${escape(message)}</p></main>`, false)
