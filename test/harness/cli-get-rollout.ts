import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

/*
 * Upstream's CLI as the oracle: `kubectl argo rollouts get rollout` has no JSON output (v1.9.1 prints a table,
 * `PrintRollout` in pkg/kubectl-argo-rollouts/cmd/get/get_rollout.go), so its text is parsed here: the header
 * fields (`%-17s%v` per line) and the tree's `revision:N` lines.
 */

const run = promisify(execFile);

export interface CliRolloutView {
  status: string;
  message: string;
  strategy: string;
  step: string;
  setWeight: string;
  actualWeight: string;
  /** "image (tag, tag)" as printed, sorted by image like upstream. */
  images: string[];
  /** Newest `revision:N` of the tree. */
  revision: number | null;
}

export interface ArgoRolloutsCli {
  run(args: string[]): Promise<string>;
  get(name: string): Promise<CliRolloutView>;
}

export function argoRolloutsCli(binDir: string, kubeconfigPath: string, context: string, namespace: string): ArgoRolloutsCli {
  const bin = path.join(binDir, "kubectl-argo-rollouts");
  const cli = {
    async run(args: string[]) {
      const { stdout } = await run(bin, ["--kubeconfig", kubeconfigPath, "--context", context, "-n", namespace, ...args], {
        timeout: 60_000,
      });
      return stdout;
    },
    async get(name: string) {
      return parseGetRollout(await cli.run(["get", "rollout", name, "--no-color"]));
    },
  };
  return cli;
}

const HEADER = /^(\s*[A-Za-z]+:)\s*(.*)$/;

/** Parses the header block and the revisions of `get rollout --no-color`. */
function parseGetRollout(text: string): CliRolloutView {
  const view: CliRolloutView = {
    status: "",
    message: "",
    strategy: "",
    step: "",
    setWeight: "",
    actualWeight: "",
    images: [],
    revision: null,
  };
  const lines = text.split("\n");
  let inImages = false;
  for (const line of lines) {
    if (line.trim() === "") break; // the header ends at the blank line before the tree
    const match = HEADER.exec(line);
    const key = match?.[1].trim() ?? "";
    const value = (match?.[2] ?? line).trim();
    if (!match || (inImages && line.startsWith(" ".repeat(17)))) {
      if (inImages) view.images.push(line.trim());
      continue;
    }
    inImages = key === "Images:";
    if (key === "Status:") view.status = value.split(" ").pop() ?? "";
    else if (key === "Message:") view.message = value;
    else if (key === "Strategy:") view.strategy = value;
    else if (key === "Step:") view.step = value;
    else if (key === "SetWeight:") view.setWeight = value;
    else if (key === "ActualWeight:") view.actualWeight = value;
    else if (key === "Images:") view.images.push(value);
  }
  const revisions = [...text.matchAll(/revision:(\d+)/g)].map((m) => Number(m[1]));
  view.revision = revisions.length > 0 ? Math.max(...revisions) : null;
  return view;
}
