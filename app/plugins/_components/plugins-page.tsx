"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { PluginsView } from "@/components/plugins/plugins-view";
import { RenderTimeProvider } from "@/components/ui/use-now";
import type { InitialPluginsPage } from "@/lib/contracts/plugins";
import { seedPluginsPage } from "@/lib/queries/use-plugins";
import { usePluginsFilter } from "./use-plugins-filter";

export function PluginsPage({ initial = null }: { initial?: InitialPluginsPage | null }) {
  const [filter, update] = usePluginsFilter();
  const client = useQueryClient();
  // Before the view's queries start: they find what the server rendered, on the server and again while hydrating.
  useState(() => initial && seedPluginsPage(client, initial));
  return (
    <RenderTimeProvider at={initial?.renderedAt ?? null}>
      <PluginsView filter={filter} onFilterChange={update} />
    </RenderTimeProvider>
  );
}
