import { expect, type Page } from "@playwright/test";

export interface AppPage {
  name: string;
  path: string;
  /** Resolves once the page shows its data (not a skeleton), so a scan sees what a person reads. */
  ready(page: Page): Promise<void>;
}

const visible = (testId: string) => async (page: Page) => {
  await expect(page.getByTestId(testId).first()).toBeVisible({ timeout: 30_000 });
};

/** One page of each kind, against the demo fleet (three simulated clusters). */
export const APP_PAGES: AppPage[] = [
  { name: "overview", path: "/", ready: visible("rollout-row") },
  {
    name: "rollout detail",
    path: "/rollouts/prod-eu/shop/checkout",
    ready: async (page) => {
      await visible("rollout-detail")(page);
      await expect(page.getByRole("region", { name: "Traffic weight" }).getByRole("status")).toHaveCount(0, { timeout: 30_000 });
    },
  },
  {
    name: "plugins",
    path: "/plugins",
    ready: async (page) => {
      await visible("plugin-matrix")(page);
      await visible("plugin-health-row")(page);
    },
  },
  {
    name: "plugin",
    path: "/plugins/argoproj-labs/contour",
    ready: async (page) => {
      await visible("plugin-entries")(page);
      await visible("plugin-health-card")(page);
    },
  },
  { name: "clusters", path: "/clusters", ready: visible("cluster-card") },
  {
    name: "cluster",
    path: "/clusters/prod-eu",
    ready: async (page) => {
      await visible("cluster-phase-count")(page);
      await visible("controller-status")(page);
    },
  },
  {
    name: "audit",
    path: "/audit",
    ready: async (page) => expect(page.getByRole("region", { name: "Entries" }).getByRole("status")).toHaveCount(0, { timeout: 30_000 }),
  },
  {
    name: "sign-in",
    path: "/signin",
    ready: async (page) =>
      expect(page.getByTestId("signin-panel").getByRole("link", { name: "Continue" })).toBeVisible({ timeout: 30_000 }),
  },
  { name: "404", path: "/no/such/page", ready: visible("not-found") },
];
