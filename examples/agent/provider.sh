#!/usr/bin/env bash
# Runs the agent example against a real model, picked from the
# environment: the first set of OPENAI_API_KEY (OpenAI, or OPENAI_BASE_URL
# for another OpenAI-compatible API), ANTHROPIC_API_KEY, OLLAMA_HOST (a
# local Ollama, no key). AGENT_MODEL replaces the default model.
#
#   examples/agent/provider.sh [mur run flags…]   # default: -v --task task.md
#
# Steps: publish.sh (build mur and the two tools, publish them into
# examples/agent/.registry); go run ./examples/agent/provider, which writes
# examples/agent/.provider/murmur.yaml (the example's manifest with the
# scripted model swapped for the bundled openai-compatible or anthropic
# driver and network.allow opened to the endpoint) and task.md; mur install
# there; mur run there. The example's own murmur.yaml is not touched: it
# stays the offline, scripted capsule that CI runs.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
dir="$here/.provider"
registry="$here/.registry"

if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
	sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
	exit 0
fi

"$here/publish.sh" "$registry"
printf '==> %s\n' "writing $dir/murmur.yaml for the provider in the environment"
(cd "$repo" && go run ./examples/agent/provider -o "$dir")
rm -f "$dir/murmur.lock"
rm -rf "$dir/.murmur/artifacts"
printf '==> %s\n' "mur install (tools from $registry, the driver built into mur)"
(cd "$dir" && HOME="$registry" "$repo/bin/mur" install --registry local)
printf '==> %s\n' "mur run ${*:--v --task task.md}"
cd "$dir"
if [[ $# -eq 0 ]]; then
	set -- -v --task task.md
fi
exec "$repo/bin/mur" run "$@"
