import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The lint config's view of lib/, read from the tree when ESLint loads it: which modules are server-only, and which
 * folders there are. Plain JavaScript because eslint.config.js imports it; scripts/lint/layers.test.ts checks it.
 */

/** A module is server-only when its source has the statement `import "server-only";` (React's build guard). */
const SERVER_ONLY_IMPORT = /^\s*import\s+["']server-only["']\s*;?\s*$/m;
/** Not modules the app imports: tests and declarations; generated Prisma clients are skipped as folders. */
const SOURCE_FILE = /^(?!.*\.(?:test|spec)\.tsx?$)(?!.*\.d\.ts$).*\.tsx?$/;
const SKIPPED_FOLDERS = new Set(["node_modules", "generated", "generated-postgres"]);

function sourceFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) files.push(...sourceFiles(full));
    } else if (entry.isFile() && SOURCE_FILE.test(entry.name)) files.push(full);
  }
  return files;
}

/**
 * The server-only modules under `libDir` (e.g. `<repo>/lib`), as paths relative to it without the extension and with
 * `/` separators (`config/current`), sorted: the form `@/lib/<path>` imports them by.
 * @param {string} libDir
 * @returns {string[]}
 */
export function serverOnlyModules(libDir) {
  return sourceFiles(libDir)
    .filter((file) => SERVER_ONLY_IMPORT.test(readFileSync(file, "utf8")))
    .map((file) =>
      path
        .relative(libDir, file)
        .replace(/\.tsx?$/, "")
        .split(path.sep)
        .join("/"),
    )
    .sort();
}

/**
 * The top-level folders of `libDir` that are in none of `layers` (an object of folder lists): each folder of lib/
 * must be placed in a layer, or the import rules silently skip it.
 * @param {string} libDir
 * @param {Record<string, string[]>} layers
 * @returns {string[]}
 */
export function foldersOutsideLayers(libDir, layers) {
  const placed = new Set(Object.values(layers).flat());
  return readdirSync(libDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !placed.has(entry.name))
    .map((entry) => entry.name)
    .sort();
}
