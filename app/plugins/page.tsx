import type { Metadata } from "next";
import { PluginsView } from "@/components/plugins/plugins-view";

export const metadata: Metadata = { title: "Plugins · Rollscope" };

export default function PluginsPage() {
  return <PluginsView />;
}
