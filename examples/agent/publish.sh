#!/usr/bin/env bash
# Builds mur and the agent example's artifacts and publishes them into a
# local registry directory, offline.
#
#   examples/agent/publish.sh [--install] [REGISTRY_DIR]
#
# Steps: go build mur into bin/mur (repo root); go build the native tool
# tools/fingerprint for this machine into tools/fingerprint/bin/fingerprint;
# copy the scripted driver (guests/out/scripted-go.wasm) into
# drivers/scripted/scripted.wasm; 'mur build' the three artifact
# directories into build/; 'mur publish' them into REGISTRY_DIR (default
# examples/agent/.registry, git-ignored).
#
# mur's local registry is the global store <HOME>/.murmur/artifacts, so the
# mur commands here run with HOME=REGISTRY_DIR. Published versions are
# immutable, so the example's own entries are removed from the registry
# first and the script can be re-run.
#
# --install then installs the three from that registry into the example's
# project store (examples/agent/.murmur/artifacts) with 'mur install',
# pinning them afresh in examples/agent/murmur.lock.
#
# The WASM tool's component is committed; rebuild it with build.sh after
# changing tools/word-stats/.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"

install=false
registry=""
for arg in "$@"; do
	case "$arg" in
	--install) install=true ;;
	-h | --help)
		sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
		exit 0
		;;
	-*)
		echo "publish.sh: unknown flag $arg (see --help)" >&2
		exit 2
		;;
	*) registry="$arg" ;;
	esac
done
registry="${registry:-$here/.registry}"
mkdir -p "$registry"
registry="$(cd "$registry" && pwd)"
mur="$repo/bin/mur"
# The artifact directories; each one's name is its last element.
artifacts=(drivers/scripted tools/word-stats tools/fingerprint)

step() { printf '==> %s\n' "$*"; }

step "building mur -> bin/mur (static: CGO_ENABLED=0)"
(cd "$repo" && CGO_ENABLED=0 go build -trimpath -o bin/mur ./cmd/mur)

step "building the native tool fingerprint for $(go env GOOS)/$(go env GOARCH)"
(cd "$repo" && CGO_ENABLED=0 go build -trimpath -buildvcs=false \
	-o examples/agent/tools/fingerprint/bin/fingerprint ./examples/agent/tools/fingerprint)

for f in tools/word-stats/word-stats.wasm ../../guests/out/scripted-go.wasm; do
	if [[ ! -f "$here/$f" ]]; then
		echo "publish.sh: $f is missing; run examples/agent/build.sh (or guests/build.sh for the driver)" >&2
		exit 1
	fi
done
cp "$repo/guests/out/scripted-go.wasm" "$here/drivers/scripted/scripted.wasm"

mkdir -p "$here/build"
zips=()
names=()
for dir in "${artifacts[@]}"; do
	name="$(basename "$dir")"
	version="$(sed -n 's/^version:[[:space:]]*"\{0,1\}\([^"]*\)"\{0,1\}[[:space:]]*$/\1/p' "$here/$dir/murmur.yaml")"
	step "mur build $dir ($name@$version)"
	"$mur" build "$here/$dir" -o "$here/build"
	zips+=("$here/build/$name-$version.mur.zip")
	names+=("$name")
	rm -rf "$registry/.murmur/artifacts/$name/$version"
done

for zip in "${zips[@]}"; do
	step "mur publish $(basename "$zip") -> $registry"
	HOME="$registry" "$mur" publish "$zip" --registry local
done

if $install; then
	step "mur install (into examples/agent/.murmur/artifacts, pinned in murmur.lock)"
	# A lock from an earlier publish may pin other bytes (install would
	# refuse them, E-REG-005), so it goes first; the project store copies
	# are replaced.
	rm -f "$here/murmur.lock"
	for name in "${names[@]}"; do
		rm -rf "$here/.murmur/artifacts/$name"
	done
	# install compiles the WASM components into the compilation cache the
	# user's 'mur run' reads, not one under the registry's HOME.
	case "$(uname)" in
	Darwin) default_cache="$HOME/Library/Caches/mur/wasm" ;;
	*) default_cache="${XDG_CACHE_HOME:-$HOME/.cache}/mur/wasm" ;;
	esac
	(cd "$here" && HOME="$registry" MUR_CACHE_DIR="${MUR_CACHE_DIR:-$default_cache}" "$mur" install --registry local)
	echo
	echo "Installed. Run the agent on its task (-v prints the session workdir):"
	echo "  cd ${here#"$PWD"/} && $mur run -v --task task.md"
else
	echo
	echo "Published to $registry/.murmur/artifacts. To install the example and run it:"
	echo "  ${BASH_SOURCE[0]} --install && (cd ${here#"$PWD"/} && $mur run -v --task task.md)"
fi
