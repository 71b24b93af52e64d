import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import nextPlugin from "@next/eslint-plugin-next";

/**
 * The layers of lib/, one list each: the import rules below are generated from them, so moving a folder between
 * layers is a one-word change. Data flows route → services → domain | adapters, and the browser reads contracts.
 *   domain:   pure, isomorphic derivation (no I/O); may import other domain folders, contracts and errors
 *   adapters: server-only I/O and runtime (Kubernetes, Prometheus, database, watches, stream, recorder)
 *   services: server-only use cases, one file per endpoint family; may import anything but routes
 */
const layers = {
  domain: ["rollouts", "overview", "plugins", "actions", "audit", "format", "contracts"],
  adapters: ["k8s", "db", "fleet", "live", "recorder", "server", "http", "auth", "metrics", "prometheus", "net", "log", "telemetry"],
  services: ["services"],
};
/** Server-only modules of otherwise isomorphic folders. */
const serverOnlyFiles = ["config/current", "config/load-config", "prometheus/client", "metrics/sources", "metrics/scraper"];

const importPatterns = (folders) => folders.flatMap((f) => [`@/lib/${f}/*`, `../${f}/*`, `../../${f}/*`]);
const restrict = (message, patterns, allowTypeImports = false) => ({
  "no-restricted-imports": "off",
  "@typescript-eslint/no-restricted-imports": ["error", { patterns: [{ group: patterns, message, allowTypeImports }] }],
});

/** Adapter folders with pure modules too (PromQL builders, counter math) are not in the domain's forbidden list. */
const impureAdapters = ["k8s", "db", "fleet", "live", "recorder", "server", "http", "auth", "log", "telemetry"];
const domainRule = restrict(
  "domain code (lib/" +
    "{" +
    layers.domain.join(",") +
    "}) is pure: it may not import services, adapters or server-only modules as values — move the I/O into lib/services.",
  [...importPatterns([...layers.services, ...impureAdapters]), ...serverOnlyFiles.map((f) => `@/lib/${f}`)],
  true,
);
const adapterRule = restrict(
  "adapters may not import services: the ring points inwards (services call adapters, never the reverse).",
  importPatterns(layers.services),
);
const browserRule = restrict(
  "browser code may import contracts and domain only, never services or server adapters: it talks to the server through lib/queries and /api.",
  [...importPatterns([...layers.services, ...layers.adapters]), ...serverOnlyFiles.map((f) => `@/lib/${f}`), "@/sim/*"],
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
    files: ["components/**/*.{ts,tsx}", "lib/queries/**/*.{ts,tsx}", "app/**/_components/**/*.{ts,tsx}", "app/providers.tsx"],
    ignores: ["**/*.test.ts"],
    rules: browserRule,
  },
);
