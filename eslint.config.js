import path from "node:path";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import nextPlugin from "@next/eslint-plugin-next";
import { foldersOutsideLayers, serverOnlyModules } from "./scripts/lint/server-only-modules.js";

/**
 * The layers of lib/, one list each: the import rules below are generated from them, so moving a folder between
 * layers is a one-word change. Data flows route → services → domain | adapters, and the browser reads contracts.
 *   domain:   pure, isomorphic derivation (no I/O), contracts, config schemas and errors; may import other domain
 *             folders. A few modules here are server-only (`import "server-only";`): they are found below, not listed.
 *   adapters: server-only I/O and runtime (Kubernetes, Prometheus, database, watches, stream, recorder)
 *   services: server-only use cases, one file per endpoint family; may import anything but routes
 *   browser:  client-side data fetching (with components/ and app's _components, under the browser rule)
 * Every folder of lib/ is in one layer: loading this config fails on a folder in none, so no folder escapes the rules.
 */
const layers = {
  domain: ["rollouts", "overview", "plugins", "actions", "audit", "activity", "format", "contracts", "config", "errors"],
  adapters: ["k8s", "db", "fleet", "live", "recorder", "server", "http", "auth", "metrics", "prometheus", "net", "log", "telemetry"],
  services: ["services"],
  browser: ["queries"],
};
const libDir = path.join(import.meta.dirname, "lib");
const unplaced = foldersOutsideLayers(libDir, layers);
if (unplaced.length > 0) {
  throw new Error(`eslint.config.js: lib/${unplaced.join(", lib/")} belongs to no layer; add it to one of \`layers\`.`);
}

/**
 * Server-only modules, read from the tree: every lib/ module with `import "server-only";`. A rule forbids the ones
 * outside the folders it already forbids whole (those of otherwise isomorphic folders), by alias and relative path.
 */
const serverOnly = serverOnlyModules(libDir);
const serverOnlyPatterns = (forbiddenFolders) =>
  serverOnly.filter((m) => !forbiddenFolders.includes(m.split("/")[0])).flatMap((m) => [`@/lib/${m}`, `../${m}`, `../../${m}`]);

const importPatterns = (folders) => folders.flatMap((f) => [`@/lib/${f}/*`, `../${f}/*`, `../../${f}/*`]);
const restrict = (message, patterns, allowTypeImports = false) => ({
  "no-restricted-imports": "off",
  "@typescript-eslint/no-restricted-imports": ["error", { patterns: [{ group: patterns, message, allowTypeImports }] }],
});

/** Adapter folders with pure modules too (PromQL builders, counter math) are not in the domain's forbidden list. */
const impureAdapters = ["k8s", "db", "fleet", "live", "recorder", "server", "http", "auth", "log", "telemetry"];
const domainForbidden = [...layers.services, ...impureAdapters];
const domainRule = restrict(
  "domain code (lib/" +
    "{" +
    layers.domain.join(",") +
    "}) is pure: it may not import services, adapters or server-only modules as values — move the I/O into lib/services.",
  [...importPatterns(domainForbidden), ...serverOnlyPatterns(domainForbidden)],
  true,
);
const adapterRule = restrict(
  "adapters may not import services: the ring points inwards (services call adapters, never the reverse).",
  importPatterns(layers.services),
);
const browserForbidden = [...layers.services, ...layers.adapters];
const browserRule = restrict(
  "browser code may import contracts and domain only, never services or server adapters: it talks to the server through lib/queries and /api.",
  [...importPatterns(browserForbidden), ...serverOnlyPatterns(browserForbidden), "@/sim/*"],
  true,
);

export default tseslint.config(
  {
    ignores: [
      ".next/**",
      ".next-*/**",
      "node_modules/**",
      ".scratch*/**",
      ".tmp*/**",
      "bench/results/**",
      "lib/db/generated/**",
      "lib/db/generated-postgres/**",
      "next-env.d.ts",
      "test-results/**",
      "playwright-report/**",
    ],
  },
  ...tseslint.configs.recommended,
  {
    plugins: { "react-hooks": reactHooks, "@next/next": nextPlugin },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...nextPlugin.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/ban-ts-comment": "error",
    },
  },
  { files: layers.domain.map((f) => `lib/${f}/**/*.{ts,tsx}`), ignores: ["**/*.test.ts"], rules: domainRule },
  { files: layers.adapters.map((f) => `lib/${f}/**/*.{ts,tsx}`), rules: adapterRule },
  {
    files: [
      "components/**/*.{ts,tsx}",
      ...layers.browser.map((f) => `lib/${f}/**/*.{ts,tsx}`),
      "app/**/_components/**/*.{ts,tsx}",
      "app/providers.tsx",
    ],
    ignores: ["**/*.test.ts"],
    rules: browserRule,
  },
);
