const COUNT = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/**
 * "5,000": one fixed locale, so a page rendered on the server (Node's locale) hydrates with the same text in any
 * browser; `toLocaleString()` would differ (and discard the server's HTML) in a browser set to another locale.
 */
export function formatCount(value: number): string {
  return COUNT.format(value);
}
