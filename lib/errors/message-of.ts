/** The message of anything thrown: an Error's own, else its string form. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
