/** The server-only modules under `libDir`, relative to it without extension (`config/current`), sorted. */
export function serverOnlyModules(libDir: string): string[];
/** The top-level folders of `libDir` that are in none of `layers`. */
export function foldersOutsideLayers(libDir: string, layers: Record<string, readonly string[]>): string[];
