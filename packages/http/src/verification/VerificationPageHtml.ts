import type { BeneficialOwner, Customer, Document, Verification } from "@payrail/core"

/** A field error shown on the page: `field` is the input's name (a dot path), also its element id. */
export interface PageFieldError {
  readonly field: string
  readonly message: string
}

/** Escapes text for HTML content and double-quoted attribute values. */
export const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c)

const style = `
body{font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fff;max-width:44rem;margin:0 auto;padding:1rem}
h1{font-size:1.6rem}h2{font-size:1.25rem;margin-top:2rem;border-top:1px solid #888;padding-top:1rem}
fieldset{border:1px solid #767676;margin:1rem 0;padding:.75rem}legend{font-weight:600}
label{display:block;margin-top:.6rem;font-weight:500}
input,select{font:inherit;padding:.35rem;border:1px solid #595959;border-radius:3px;width:100%;box-sizing:border-box}
input[type=checkbox]{width:auto}label.check{display:inline-block;margin-right:1rem;font-weight:400}
button{font:inherit;margin-top:1rem;padding:.5rem 1rem;background:#0b4f9c;color:#fff;border:0;border-radius:3px}
button:focus,input:focus,select:focus,a:focus{outline:3px solid #c25700;outline-offset:2px}
.errors{border:3px solid #b00020;padding:.5rem 1rem;margin:1rem 0}.errors h2{border:0;margin:0;padding:0;color:#b00020}
.field-error{color:#b00020;font-weight:600}a{color:#0b4f9c}.missing li{margin:.25rem 0}.ok{color:#1b5e20}
`

/** The page's document: `lang`, a title, inline CSS only (the Content-Security-Policy allows nothing else). */
export const layout = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
  `<meta name="referrer" content="no-referrer"><link rel="icon" href="data:,"><title>${escape(title)}</title><style>${style}</style></head>` +
  `<body><main>${body}</main></body></html>`

/** A page that says only why the link cannot be used: no data of the customer. */
export const unusablePage = (heading: string, text: string): string =>
  layout(heading, `<h1>${escape(heading)}</h1><p>${escape(text)}</p>`)

/** The error summary at the top of a form, each error linked to its input; focus lands on it (autofocus). */
const errorSummary = (errors: ReadonlyArray<PageFieldError>): string =>
  errors.length === 0
    ? ""
    : `<div class="errors" role="alert" tabindex="-1" id="error-summary" autofocus><h2>There is a problem</h2><ul>` +
      errors
        .map((e) => `<li><a href="#${escape(e.field)}">${escape(e.field)}: ${escape(e.message)}</a></li>`)
        .join("") +
      `</ul></div>`

const errorOf = (errors: ReadonlyArray<PageFieldError>, name: string) => errors.find((e) => e.field === name)

/** A labelled input, with its error (if any) announced through `aria-describedby`. */
const input = (
  name: string,
  label: string,
  value: string | undefined,
  errors: ReadonlyArray<PageFieldError>,
  options: { readonly type?: string; readonly required?: boolean; readonly hint?: string } = {}
): string => {
  const error = errorOf(errors, name)
  const errorId = `${name}-error`
  return (
    `<label for="${escape(name)}">${escape(label)}${options.required ? " (required)" : ""}</label>` +
    (error ? `<p class="field-error" id="${escape(errorId)}">${escape(error.message)}</p>` : "") +
    `<input id="${escape(name)}" name="${escape(name)}" type="${options.type ?? "text"}"` +
    (value === undefined ? "" : ` value="${escape(value)}"`) +
    (options.required ? " required" : "") +
    (error ? ` aria-invalid="true" aria-describedby="${escape(errorId)}"` : "") +
    ">"
  )
}

const select = (name: string, label: string, options: ReadonlyArray<readonly [string, string]>): string =>
  `<label for="${escape(name)}">${escape(label)}</label><select id="${escape(name)}" name="${escape(name)}">` +
  options.map(([value, text]) => `<option value="${escape(value)}">${escape(text)}</option>`).join("") +
  `</select>`

const addressFields = (
  prefix: string,
  address: Customer.Customer["address"],
  errors: ReadonlyArray<PageFieldError>
): string =>
  `<fieldset><legend>Address</legend>` +
  input(`${prefix}.line1`, "Street and number", address?.line1, errors, { required: true }) +
  input(`${prefix}.line2`, "Apartment, suite (optional)", address?.line2, errors) +
  input(`${prefix}.city`, "City", address?.city, errors) +
  input(`${prefix}.state`, "State or region", address?.state, errors) +
  input(`${prefix}.postalCode`, "Postal code", address?.postalCode, errors, { required: true }) +
  input(`${prefix}.country`, "Country (2-letter code, e.g. US)", address?.country, errors, { required: true }) +
  `</fieldset>`

/** What the page shows and lets the person do for one customer. */
export interface PageModel {
  readonly action: string
  readonly customer: Customer.Customer
  readonly missing: ReadonlyArray<Verification.VerificationError>
  readonly owners: ReadonlyArray<BeneficialOwner.BeneficialOwner>
  readonly documents: ReadonlyArray<Document.Document>
  readonly documentTypes: ReadonlyArray<string>
  /** Which form the errors belong to, and the errors. */
  readonly form?: "fields" | "documents" | "owners" | "submit" | undefined
  readonly errors?: ReadonlyArray<PageFieldError> | undefined
  readonly notice?: string | undefined
}

const describe = (error: Verification.VerificationError): string =>
  error.type +
  (error.field ? ` (${error.field})` : "") +
  (error.acceptedDocumentTypes ? `: one of ${error.acceptedDocumentTypes.join(", ")}` : "") +
  ` on ${error.resourceId.split(":")[0]}`

/** The hosted verification page. The customer's write-only identifiers are never part of it. */
export const page = (model: PageModel): string => {
  const { action, customer } = model
  const errorsFor = (form: NonNullable<PageModel["form"]>) => (model.form === form ? (model.errors ?? []) : [])
  const name = customer.customerType === "BUSINESS" ? customer.businessInfo.legalName : (customer.fullName ?? "")
  const missing =
    model.missing.length === 0
      ? `<p class="ok">Nothing is missing: you can submit.</p>`
      : `<ul class="missing">${model.missing.map((e) => `<li>${escape(e.reason)} <small>${escape(describe(e))}</small></li>`).join("")}</ul>`
  const fieldErrors = errorsFor("fields")
  const fields =
    customer.customerType === "BUSINESS"
      ? `<fieldset><legend>Business</legend>` +
        input("businessInfo.legalName", "Legal name", customer.businessInfo.legalName, fieldErrors, {
          required: true
        }) +
        input(
          "businessInfo.doingBusinessAs",
          "Trading name (optional)",
          customer.businessInfo.doingBusinessAs,
          fieldErrors
        ) +
        input(
          "businessInfo.registrationNumber",
          "Registration number",
          customer.businessInfo.registrationNumber,
          fieldErrors
        ) +
        input("businessInfo.taxId", "Tax id", customer.businessInfo.taxId, fieldErrors) +
        input(
          "businessInfo.country",
          "Country of incorporation (2-letter code)",
          customer.businessInfo.country,
          fieldErrors
        ) +
        input("businessInfo.incorporatedOn", "Incorporated on", customer.businessInfo.incorporatedOn, fieldErrors, {
          type: "date"
        }) +
        input("businessInfo.entityType", "Entity type (e.g. LLC)", customer.businessInfo.entityType, fieldErrors) +
        `</fieldset>` +
        addressFields("address", customer.address, fieldErrors)
      : `<fieldset><legend>About you</legend>` +
        input("fullName", "Full name", customer.fullName, fieldErrors, { required: true }) +
        input("birthDate", "Date of birth", customer.birthDate, fieldErrors, { type: "date", required: true }) +
        input("nationality", "Nationality (2-letter code, e.g. US)", customer.nationality, fieldErrors, {
          required: true
        }) +
        `</fieldset>` +
        addressFields("address", customer.address, fieldErrors)
  const holders: Array<readonly [string, string]> = [
    [customer.id, customer.customerType === "BUSINESS" ? `The business (${name})` : "You"],
    ...model.owners.map(
      (owner) => [owner.id, `${owner.personalInfo.firstName} ${owner.personalInfo.lastName}`] as const
    )
  ]
  const documentErrors = errorsFor("documents")
  const documents =
    (model.documents.length === 0
      ? "<p>No documents yet.</p>"
      : `<ul>${model.documents.map((d) => `<li>${escape(d.documentType)}: ${escape(d.fileName)}</li>`).join("")}</ul>`) +
    `<form method="post" action="${escape(action)}/documents" enctype="multipart/form-data">` +
    errorSummary(documentErrors) +
    `<fieldset><legend>Upload a document</legend>` +
    select("documentHolder", "Whose document", holders) +
    select(
      "documentType",
      "Type of document",
      model.documentTypes.map((t) => [t, t.replaceAll("_", " ").toLowerCase()])
    ) +
    input("country", "Issuing country (2-letter code)", undefined, documentErrors, { required: true }) +
    input("documentNumber", "Document number (optional)", undefined, documentErrors) +
    input("file", "File (PDF, JPEG or PNG)", undefined, documentErrors, { type: "file", required: true }) +
    `</fieldset><button type="submit">Upload</button></form>`
  const ownerErrors = errorsFor("owners")
  const owners =
    customer.customerType !== "BUSINESS"
      ? ""
      : `<h2>Owners and control persons</h2>` +
        (model.owners.length === 0
          ? "<p>No one declared yet.</p>"
          : `<ul>${model.owners.map((o) => `<li>${escape(o.personalInfo.firstName)} ${escape(o.personalInfo.lastName)}: ${escape(o.roles.join(", "))} (${o.ownershipPercentage}%)</li>`).join("")}</ul>`) +
        `<form method="post" action="${escape(action)}/owners">` +
        errorSummary(ownerErrors) +
        `<fieldset><legend>Add a person</legend><fieldset><legend>Roles</legend>` +
        ["UBO", "DIRECTOR", "COMPANY_OFFICER", "CONTROL_PERSON", "TRUSTEE", "GENERAL_PARTNER"]
          .map(
            (role) =>
              `<label class="check"><input type="checkbox" name="roles" value="${role}" id="roles-${role}"> ${role.replaceAll("_", " ").toLowerCase()}</label>`
          )
          .join("") +
        `</fieldset>` +
        input("ownershipPercentage", "Ownership (percent)", undefined, ownerErrors, {
          type: "number",
          required: true
        }) +
        input("personalInfo.firstName", "First name", undefined, ownerErrors, { required: true }) +
        input("personalInfo.lastName", "Last name", undefined, ownerErrors, { required: true }) +
        input("personalInfo.birthDate", "Date of birth", undefined, ownerErrors, { type: "date", required: true }) +
        input("personalInfo.nationality", "Nationality (2-letter code)", undefined, ownerErrors, { required: true }) +
        select("personalInfo.idType", "Tax id type", [
          ["SSN", "SSN"],
          ["ITIN", "ITIN"],
          ["NON_US_TAX_ID", "Non-US tax id"]
        ]) +
        input("personalInfo.identifier", "Tax id (###-##-####)", undefined, ownerErrors, { required: true }) +
        addressFields("personalInfo.address", undefined, ownerErrors) +
        `</fieldset><button type="submit">Add person</button></form>`
  const submitErrors = errorsFor("submit")
  return layout(
    "Verify your details",
    `<h1>Verify ${escape(name === "" ? "your details" : name)}</h1>` +
      (model.notice ? `<p role="status" class="ok">${escape(model.notice)}</p>` : "") +
      `<h2>What is still missing</h2>${missing}` +
      `<h2>Details</h2><form method="post" action="${escape(action)}/fields">` +
      errorSummary(fieldErrors) +
      fields +
      `<button type="submit">Save details</button></form>` +
      `<h2>Documents</h2>${documents}` +
      owners +
      `<h2>Submit</h2><form method="post" action="${escape(action)}/submit">` +
      errorSummary(submitErrors) +
      `<p>When everything above is complete, submit it for review. If anything still needs fixing it is listed here and this link keeps working; once your details are accepted for review, it stops working.</p>` +
      `<button type="submit" id="submit">Submit for verification</button></form>`
  )
}

/** The page shown after submitting when the platform gave no `redirectUri`. */
export const thankYouPage = (): string =>
  layout("Thank you", `<h1>Thank you</h1><p>Your details were submitted for verification. You can close this page.</p>`)
