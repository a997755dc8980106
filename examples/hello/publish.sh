#!/usr/bin/env bash
# Builds mur and the hello example's artifacts and publishes them into a
# local registry directory, offline.
#
#   examples/hello/publish.sh [--install] [REGISTRY_DIR]
#
# Steps: go build mur into bin/mur (repo root); go build the native tool
# tools/greet for this machine into tools/greet/bin/greet; 'mur build' each
# artifact directory into build/; 'mur publish' both packages into
# REGISTRY_DIR (default examples/hello/.registry, git-ignored).
#
# The registry is a plain local directory store. mur's local registry is the
# global store <HOME>/.murmur/artifacts, so the mur commands here run with
# HOME=REGISTRY_DIR; the packages land in REGISTRY_DIR/.murmur/artifacts
# ('mur registry serve --dir' on that directory serves them over HTTP).
# Published versions are immutable, so the example's own two entries are
# removed from the registry first and the script can be re-run.
#
# --install then installs both packages from that registry into the
# example's project store (examples/hello/.murmur/artifacts) with
# 'mur install', pinning them afresh in examples/hello/murmur.lock, so that
# 'mur run' in examples/hello finds exactly those bytes. (The capsule
# component itself, capsule.wasm, is not an artifact: mur run loads it from
# beside murmur.yaml.)
#
# The WebAssembly components are committed; rebuild them with build.sh
# after changing capsule/ or tools/word-count/.
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
tools=(word-count greet)

step() { printf '==> %s\n' "$*"; }

step "building mur -> bin/mur (static: CGO_ENABLED=0)"
(cd "$repo" && CGO_ENABLED=0 go build -trimpath -o bin/mur ./cmd/mur)

step "building the native tool greet for $(go env GOOS)/$(go env GOARCH)"
(cd "$repo" && CGO_ENABLED=0 go build -trimpath -buildvcs=false \
	-o examples/hello/tools/greet/bin/greet ./examples/hello/tools/greet)

for f in capsule.wasm tools/word-count/word-count.wasm; do
	if [[ ! -f "$here/$f" ]]; then
		echo "publish.sh: $f is missing; run examples/hello/build.sh" >&2
		exit 1
	fi
done

mkdir -p "$here/build"
zips=()
for tool in "${tools[@]}"; do
	version="$(sed -n 's/^version:[[:space:]]*"\{0,1\}\([^"]*\)"\{0,1\}[[:space:]]*$/\1/p' "$here/tools/$tool/murmur.yaml")"
	step "mur build tools/$tool ($tool@$version)"
	"$mur" build "$here/tools/$tool" -o "$here/build"
	zips+=("$here/build/$tool-$version.mur.zip")
	rm -rf "$registry/.murmur/artifacts/$tool/$version"
done

for zip in "${zips[@]}"; do
	step "mur publish $(basename "$zip") -> $registry"
	HOME="$registry" "$mur" publish "$zip" --registry local
done

if $install; then
	step "mur install (into examples/hello/.murmur/artifacts, pinned in murmur.lock)"
	# Every artifact murmur.yaml declares is resolved by name@version from
	# the registry directory (this machine's platform variant for greet),
	# checked against its sha256 and pinned in murmur.lock. A lock from an
	# earlier publish may pin other bytes (install would refuse them,
	# E-REG-005), so it goes first; the project store copies are replaced.
	rm -f "$here/murmur.lock"
	for tool in "${tools[@]}"; do
		rm -rf "$here/.murmur/artifacts/$tool"
	done
	(cd "$here" && HOME="$registry" "$mur" install --registry local)
	echo
	echo "Installed. Run the example (-v prints the session workdir, where out/result.txt is):"
	echo "  cd ${here#"$PWD"/} && $mur run -v"
else
	echo
	echo "Published to $registry/.murmur/artifacts. To install the example and run it:"
	echo "  ${BASH_SOURCE[0]} --install && (cd ${here#"$PWD"/} && $mur run -v)"
fi
