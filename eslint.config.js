import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import nextPlugin from "@next/eslint-plugin-next";

/** Server-only modules: importing them from browser code is a lint error (and `server-only` makes it a build error). */
const serverOnlyPatterns = [
  { group: ["@/lib/k8s/*", "@/lib/db/*", "@/lib/config/load-config", "@/lib/config/current", "@/lib/config/default-kubeconfig", "@/lib/fleet/fleet", "@/lib/fleet/cluster-watcher"], message: "Server-only module: browser code talks to the server through lib/queries and /api." },
  { group: ["@/lib/services/*", "@/lib/server/*", "@/lib/*/service", "@/lib/http/route", "@/lib/recorder/*", "@/lib/live/*", "@/lib/prometheus/client", "@/lib/auth/*", "@/sim/*"], message: "Server-only module: browser code talks to the server through lib/queries and /api." },
];

/** The domain folders are pure and isomorphic: they derive, the services and adapters do the I/O. */
const domainPatterns = [
  { group: ["@/lib/services/*", "@/lib/server/*", "@/lib/fleet/*", "@/lib/db/*", "@/lib/k8s/*", "@/lib/live/*", "@/lib/recorder/*"], message: "Domain code is pure: services call it, not the other way round (types may be imported)." },
  { group: ["node:*", "server-only"], message: "Domain code runs in the browser too: no Node.js modules." },
];

export default tseslint.config(
  { ignores: [".next/**", "node_modules/**", ".scratch*/**", ".tmp*/**", "bench/results/**", "lib/db/generated/**", "next-env.d.ts", "test-results/**", "playwright-report/**"] },
  ...tseslint.configs.recommended,
  {
    plugins: { "react-hooks": reactHooks, "@next/next": nextPlugin },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...nextPlugin.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/ban-ts-comment": "error",
    },
  },
  {
    files: ["components/**/*.{ts,tsx}", "lib/queries/**/*.{ts,tsx}", "app/**/_components/**/*.{ts,tsx}", "app/providers.tsx"],
    rules: {
      "no-restricted-imports": "off",
      "@typescript-eslint/no-restricted-imports": ["error", { patterns: serverOnlyPatterns.map((p) => ({ ...p, allowTypeImports: true })) }],
    },
  },
  {
    files: ["lib/rollouts/**/*.ts", "lib/overview/**/*.ts", "lib/actions/**/*.ts", "lib/audit/**/*.ts"],
    ignores: ["**/*.test.ts", "**/*.test-helper.ts"],
    rules: {
      "no-restricted-imports": "off",
      "@typescript-eslint/no-restricted-imports": ["error", { patterns: domainPatterns.map((p) => ({ ...p, allowTypeImports: true })) }],
    },
  },
);
