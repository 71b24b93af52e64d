/**
 * Run by scripts/start-server.sh before `next start`: checks the configuration (exit 1 with the field named, before
 * anything listens), logs where the server will listen, and prints the address for `-H` (empty: Next's default).
 * Usage: node --conditions=react-server --import tsx scripts/preflight.ts [next start arguments]
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describeListenAddress, hostnameArgument, resolveListenAddress } from "@/lib/server/listen-address";
import { checkStartupConfiguration } from "@/lib/server/startup-check";

/** The basePath the production build was made with (its required-server-files.json); "" without a build. */
function builtBasePath(): string {
  const file = path.resolve(import.meta.dirname, "..", process.env.ROLLSCOPE_DIST_DIR ?? ".next", "required-server-files.json");
  if (!existsSync(file)) return "";
  return (JSON.parse(readFileSync(file, "utf8")) as { config?: { basePath?: string } }).config?.basePath ?? "";
}

try {
  const config = checkStartupConfiguration(builtBasePath());
  const listen = resolveListenAddress({
    argument: hostnameArgument(process.argv.slice(2)),
    env: process.env.ROLLSCOPE_LISTEN,
    configured: config.server.listen,
    mode: config.auth.mode,
  });
  console.error(describeListenAddress(listen, config.auth.mode));
  process.stdout.write(listen.host ?? "");
} catch (err) {
  console.error(`Rollscope cannot start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
