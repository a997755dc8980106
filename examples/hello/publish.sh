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
# example's project store (examples/hello/.murmur/artifacts) and removes
# examples/hello/murmur.lock, so that 'mur run' in examples/hello finds them
# and pins them afresh. (The capsule component itself, capsule.wasm, is not an
# artifact: mur run loads it from beside murmur.yaml.)
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

step "building mur -> bin/mur"
(cd "$repo" && go build -o bin/mur ./cmd/mur)

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
	step "mur install (into examples/hello/.murmur/artifacts)"
	# Each package is installed from the registry directory by path. A plain
	# 'mur install' (resolve by name@version and pin in murmur.lock) cannot
	# find the native tool there yet: like Murmur, it resolves without a
	# platform, and a native package exists only as a platform variant. Path
	# installs are not pinned, so the stale lock goes too, and the first
	# 'mur run' pins exactly what it staged.
	rm -f "$here/murmur.lock"
	store="$registry/.murmur/artifacts"
	for i in "${!tools[@]}"; do
		tool="${tools[$i]}"
		zip="$(basename "${zips[$i]}")"
		version="${zip#"$tool-"}"
		version="${version%.mur.zip}"
		pkgs=("$store/$tool/$version/$tool-$version"*.mur.zip)
		if [[ ${#pkgs[@]} -ne 1 || ! -f "${pkgs[0]}" ]]; then
			echo "publish.sh: expected one package for $tool@$version in $store/$tool/$version" >&2
			exit 1
		fi
		rm -rf "$here/.murmur/artifacts/$tool"
		(cd "$here" && "$mur" install "${pkgs[0]}")
	done
	echo
	echo "Installed. Run the example:"
	echo "  cd ${here#"$PWD"/} && $mur run"
else
	echo
	echo "Published to $registry/.murmur/artifacts. To install the example and run it:"
	echo "  ${BASH_SOURCE[0]} --install && (cd ${here#"$PWD"/} && $mur run)"
fi
