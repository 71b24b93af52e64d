import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * The folder-level import graph of `lib/`: an edge A → B when a module of lib/A imports a module of lib/B *as a
 * value*. Type-only imports (`import type`, `export type`, or every specifier marked `type`) are erased at build
 * time and cannot make a cycle at run time, so they are left out.
 */
export type FolderGraph = Map<string, Map<string, string[]>>;

// The clause between the keyword and `from` holds only names, braces, commas and `*` (never `;`, `(` or `=`), so a
// match cannot run on from `import "x";` or `export function` into a later statement.
const IMPORT_RE = /^\s*(?:import|export)\s+(type\s+)?([\w\s{},*$]*?)\s*from\s+["']([^"']+)["']/gm;
const SIDE_EFFECT_RE = /^\s*import\s+["']([^"']+)["']/gm;

function isTypeOnly(typeKeyword: string | undefined, clause: string): boolean {
  if (typeKeyword) return true;
  const braces = /^\{([\s\S]*)\}$/.exec(clause.trim());
  if (!braces) return false;
  const specifiers = braces[1]
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return specifiers.length > 0 && specifiers.every((s) => s.startsWith("type "));
}

/** Value imports of one source text: the module specifiers, in order. */
export function valueImports(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(IMPORT_RE)) if (!isTypeOnly(m[1], m[2])) found.push(m[3]);
  for (const m of source.matchAll(SIDE_EFFECT_RE)) found.push(m[1]);
  return found;
}

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) {
      if (entry !== "generated" && entry !== "node_modules") files.push(...sourceFiles(full));
    } else if (/\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry) && !entry.endsWith(".d.ts")) files.push(full);
  }
  return files;
}

/** The lib folder a specifier points at, from a file in `libDir`; null when it leaves lib/. */
function targetFolder(libDir: string, fromFile: string, specifier: string, alias: string): string | null {
  let resolved: string;
  if (specifier.startsWith(alias)) resolved = path.join(libDir, specifier.slice(alias.length));
  else if (specifier.startsWith(".")) resolved = path.resolve(path.dirname(fromFile), specifier);
  else return null;
  const rel = path.relative(libDir, resolved);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return null;
  return rel.split(path.sep)[0];
}

/** Builds the graph of `libDir` (e.g. `<repo>/lib`), whose modules import each other as `alias` + path. */
export function buildFolderGraph(libDir: string, alias = "@/lib/"): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const file of sourceFiles(libDir)) {
    const from = path.relative(libDir, file).split(path.sep)[0];
    if (!graph.has(from)) graph.set(from, new Map());
    for (const specifier of valueImports(readFileSync(file, "utf8"))) {
      const to = targetFolder(libDir, file, specifier, alias);
      if (!to || to === from || to.includes(".")) continue;
      const edges = graph.get(from)!;
      edges.set(to, [...(edges.get(to) ?? []), path.relative(libDir, file)]);
    }
  }
  return graph;
}

/** Strongly connected components of more than one folder: each is an import cycle (Tarjan). */
export function findCycles(graph: FolderGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

/** One line per edge inside a cycle, naming the files that make it: what to read to break the cycle. */
export function describeCycle(graph: FolderGraph, cycle: string[]): string {
  const members = new Set(cycle);
  const lines: string[] = [];
  for (const from of cycle) {
    for (const [to, files] of graph.get(from) ?? []) {
      if (members.has(to)) lines.push(`  ${from} → ${to}  (${[...new Set(files)].slice(0, 3).join(", ")})`);
    }
  }
  return `import cycle through ${cycle.join(", ")}:\n${lines.join("\n")}`;
}
