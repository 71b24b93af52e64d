import { describe, expect, it } from "vitest";
import {
  buildGroupedIncreaseQuery,
  buildIncreaseQuery,
  checkPromqlSyntax,
  formatLabelFilter,
  formatPromDuration,
  injectLabelMatchers,
  listSelectedMetrics,
  parsePromDuration,
  renderPromqlTemplate,
} from "./promql";

describe("checkPromqlSyntax", () => {
  it("accepts valid queries and locates the first error", () => {
    expect(checkPromqlSyntax('sum by (plugin) (rate(x_total{a="b"}[5m]))')).toBeNull();
    const error = checkPromqlSyntax('sum(rate(foo{a="b"[5m]))');
    expect(error?.column).toBe(19);
    expect(error?.message).toContain("column 19");
    expect(checkPromqlSyntax("  ")?.message).toBe("is empty");
  });
});

describe("injectLabelMatchers", () => {
  it("adds the matcher to every selector, with or without braces", () => {
    expect(injectLabelMatchers('sum(rate(a_total{x="1"}[1m])) / sum(rate(b_total[1m])) + c{}', 'cluster="prod-eu"')).toBe(
      'sum(rate(a_total{cluster="prod-eu", x="1"}[1m])) / sum(rate(b_total{cluster="prod-eu"}[1m])) + c{cluster="prod-eu"}',
    );
  });

  it("leaves strings and function names alone and is a no-op without a matcher", () => {
    const query = 'label_replace(up, "dst", "$1", "src", "(.*)")';
    expect(injectLabelMatchers(query, 'cluster="x"')).toBe('label_replace(up{cluster="x"}, "dst", "$1", "src", "(.*)")');
    expect(injectLabelMatchers(query, undefined)).toBe(query);
  });
});

describe("templates", () => {
  it("renders variables escaped and reports missing ones", () => {
    expect(renderPromqlTemplate('x{svc="${canaryService}"}[${window}]', { canaryService: 'a"b', window: "1m" })).toEqual({
      ok: true,
      promql: 'x{svc="a\\"b"}[1m]',
    });
    expect(renderPromqlTemplate('x{svc="${canaryService}", h="${canaryHash}"}', { canaryService: null, canaryHash: "" })).toEqual({
      ok: false,
      missing: ["canaryService", "canaryHash"],
    });
  });

  it("regex-escapes values inside regex matchers only, so a name matches itself and nothing else", () => {
    const values = { canaryService: "web.v2", stableService: "a+b(c)", namespace: "shop.eu" };
    expect(renderPromqlTemplate('x{ns="${namespace}", svc=~"${canaryService}|${stableService}"}', values)).toEqual({
      ok: true,
      promql: 'x{ns="shop.eu", svc=~"web\\\\.v2|a\\\\+b\\\\(c\\\\)"}',
    });
    expect(renderPromqlTemplate("x{svc !~ '${canaryService}', ns=\"${namespace}\"}", values)).toEqual({
      ok: true,
      promql: "x{svc !~ 'web\\\\.v2', ns=\"shop.eu\"}",
    });
    expect(renderPromqlTemplate('label_replace(x{a="=~${namespace}"}, "d", "$1", "s", "(.*)")', values)).toEqual({
      ok: true,
      promql: 'label_replace(x{a="=~shop.eu"}, "d", "$1", "s", "(.*)")',
    });
  });

  it("lists selected metric names", () => {
    expect(listSelectedMetrics("sum(rate(a_total[1m])) / on() b")).toEqual(["a_total", "b"]);
  });
});

describe("builders", () => {
  it("builds sum-by-increase queries with value sets and the cluster matcher", () => {
    expect(
      buildIncreaseQuery({
        metric: "rollout_events_total",
        filter: { namespace: ["shop", "pay.ments"], reason: "TrafficRoutingError" },
        by: ["namespace", "name", "reason"],
        windowSeconds: 60,
        labelMatchers: 'cluster="prod-eu"',
      }),
    ).toBe(
      'sum by (namespace, name, reason) (increase(rollout_events_total{cluster="prod-eu", namespace=~"shop|pay\\\\.ments", reason="TrafficRoutingError"}[1m]))',
    );
    expect(formatLabelFilter({ a: ["x"] })).toBe('{a="x"}');
  });

  it("formats and parses durations", () => {
    expect([formatPromDuration(30), formatPromDuration(300), formatPromDuration(7200), formatPromDuration(90)]).toEqual([
      "30s",
      "5m",
      "2h",
      "90s",
    ]);
    expect(parsePromDuration("1h30m")).toBe(5400);
    expect(parsePromDuration("5 minutes")).toBeNull();
  });
});

describe("buildGroupedIncreaseQuery", () => {
  const parts = [
    { metric: "rollout_events_total", filter: { reason: ["TrafficRoutingError", "WeightVerifyError"] }, by: ["reason"] },
    { metric: "rollout_reconcile_count", by: [] },
  ];
  const groups = [
    {
      key: "0",
      rollouts: [
        { namespace: "shop", name: "storefront" },
        { namespace: "shop", name: "check.out" },
        { namespace: "search", name: "api" },
      ],
    },
    { key: "1", rollouts: [{ namespace: "shop", name: "storefront" }] },
  ];

  it("selects each group's Rollouts by namespace and name, tags group and part, and sums by them in one query", () => {
    const query = buildGroupedIncreaseQuery({
      parts: parts.slice(1),
      groups,
      windowSeconds: 60,
      groupLabel: "g",
      partLabel: "p",
      labelMatchers: 'cluster="prod-eu"',
    });
    expect(query).toBe(
      "sum by (g, p) (" +
        'label_replace(label_replace(sum (increase(rollout_reconcile_count{cluster="prod-eu", namespace="shop", name=~"storefront|check\\\\.out"}[1m]) or ' +
        'increase(rollout_reconcile_count{cluster="prod-eu", namespace="search", name="api"}[1m])), "p", "0", "", ""), "g", "0", "", "") or ' +
        'label_replace(label_replace(sum (increase(rollout_reconcile_count{cluster="prod-eu", namespace="shop", name="storefront"}[1m])), "p", "0", "", ""), "g", "1", "", ""))',
    );
    expect(checkPromqlSyntax(query!)).toBeNull();
  });

  it("adds the configured label matchers to every selector, as the grammar would find them, without parsing the query", () => {
    const labelMatchers = ' cluster="prod-eu", region=~"eu-.*" ';
    const input = { parts, groups, windowSeconds: 300, groupLabel: "g", partLabel: "p" };
    const query = buildGroupedIncreaseQuery({ ...input, labelMatchers })!;
    expect(query).toBe(injectLabelMatchers(buildGroupedIncreaseQuery(input)!, labelMatchers));
    expect(query).toContain(
      'rollout_events_total{cluster="prod-eu", region=~"eu-.*", reason=~"TrafficRoutingError|WeightVerifyError", namespace="shop"',
    );
    expect(checkPromqlSyntax(query)).toBeNull();
  });

  it("keeps each part's filter and `by` labels, and asks nothing when no group has a Rollout", () => {
    const query = buildGroupedIncreaseQuery({ parts, groups, windowSeconds: 3600, groupLabel: "g", partLabel: "p" })!;
    expect(query.startsWith("sum by (g, p, reason) (")).toBe(true);
    expect(query).toContain('rollout_events_total{reason=~"TrafficRoutingError|WeightVerifyError", namespace="search", name="api"}[1h]');
    expect(query).toContain('"p", "1", "", "")');
    // Each term is summed by its part's labels before it is tagged.
    expect(query).toContain("label_replace(label_replace(sum by (reason) (increase(rollout_events_total{");
    expect(checkPromqlSyntax(query)).toBeNull();
    expect(
      buildGroupedIncreaseQuery({ parts, groups: [{ key: "0", rollouts: [] }], windowSeconds: 60, groupLabel: "g", partLabel: "p" }),
    ).toBeNull();
  });
});
