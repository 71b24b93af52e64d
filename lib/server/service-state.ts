/**
 * What services keep between requests (caches of computed results), owned by the app context rather than by a module:
 * two contexts (two tests, a reloaded configuration) never share it, and dropping the context drops it.
 */
export class ServiceState {
  private readonly values = new Map<string, unknown>();

  /** The value kept under `key`, made by `create` on first use. Each key belongs to one service and one type. */
  getOrCreate<T>(key: string, create: () => T): T {
    if (!this.values.has(key)) this.values.set(key, create());
    return this.values.get(key) as T;
  }
}
