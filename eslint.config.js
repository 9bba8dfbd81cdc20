import js from "@eslint/js"
import tseslint from "typescript-eslint"

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", ".payrail/**", "coverage/**"] },
  js.configs.recommended,
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } }
  },
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/ban-ts-comment": [
        "error",
        { "ts-ignore": true, "ts-nocheck": true, "ts-expect-error": "allow-with-description" }
      ],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-namespace": "off",
      "no-console": "off"
    }
  },
  {
    files: ["packages/*/src/**/*.ts"],
    ignores: ["packages/server/src/**"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "Date", property: "now", message: "Read time from Effect's Clock." },
        { object: "Math", property: "random", message: "Use the Ids service or Effect's Random." },
        {
          object: "Schema",
          property: "Class",
          message: "Use SchemaClass.Class (core's kernel): Schema.Class compiles its validator again on every new."
        }
      ],
      "no-restricted-syntax": [
        "error",
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: "Read time from Effect's Clock." }
      ]
    }
  },
  {
    // The platform packages' indexes load every module they have, Swagger UI's 4 MB bundle among them, into every
    // process that imports one name from them; the packages import the modules they use.
    files: ["packages/*/src/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "@effect/platform", message: 'Import the module itself: "@effect/platform/HttpApi".' },
            { name: "@effect/platform-node", message: 'Import the module itself: "@effect/platform-node/NodeContext".' }
          ]
        }
      ]
    }
  },
  {
    files: ["packages/core/src/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["node:*"], message: "core depends on effect and @payrail/account-formats only." },
            { group: ["@effect/*"], message: "core depends on effect and @payrail/account-formats only." },
            {
              group: ["@payrail/*", "!@payrail/account-formats"],
              message: "core depends on effect and @payrail/account-formats only."
            },
            { group: ["@payrail/account-formats/*"], message: "Import account formats through the package's index." }
          ]
        }
      ]
    }
  },
  {
    // A bounded context reaches another only through its index.ts, never its modules or its internal/ folder.
    files: ["packages/core/src/*/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["node:*"], message: "core depends on effect and @payrail/account-formats only." },
            { group: ["@effect/*"], message: "core depends on effect and @payrail/account-formats only." },
            {
              group: ["@payrail/*", "!@payrail/account-formats"],
              message: "core depends on effect and @payrail/account-formats only."
            },
            { group: ["@payrail/account-formats/*"], message: "Import account formats through the package's index." },
            { group: ["../*/*", "!../*/index.js"], message: "Import another bounded context through its index.ts." },
            { group: ["../*/internal/*", "../../*"], message: "Import another bounded context through its index.ts." }
          ]
        }
      ]
    }
  },
  {
    // The adapters and the HTTP contract mirror core's contexts: there too a context folder reaches another only
    // through its index.ts (the package's shared internal/ and kernel/ aside, also from a context's own internal/).
    files: ["packages/{api,http,storage-memory,storage-postgres,storage-testkit}/src/*/**/*.ts"],
    // Migrations define every context's tables, and share constraint names with the repositories that map them.
    ignores: ["packages/storage-postgres/src/migrations/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["../*/*", "!../*/index.js", "!../internal/*", "!../kernel/*", "!../../internal"],
              message: "Import another context folder through its index.ts."
            }
          ]
        }
      ]
    }
  },
  {
    files: ["packages/account-formats/src/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["node:*"], message: "account-formats runs in browsers and React Native: no node: modules." },
            {
              group: ["@payrail/*", "@effect/*"],
              message: "account-formats depends on effect, @noble/hashes and @scure/base only."
            }
          ]
        }
      ]
    }
  },
  {
    files: ["packages/wallet-protocol/src/**/*.ts", "packages/signer/src/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["node:*"], message: "Device packages run in browsers and React Native: no node: modules." }
          ]
        }
      ]
    }
  },
  {
    files: ["packages/client/src/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["node:*"],
              message: "@payrail/client runs in browsers too: fetch and web APIs only, no node: modules."
            }
          ]
        }
      ]
    }
  }
)
