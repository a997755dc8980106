#!/usr/bin/env bash
# Installs guests/node_modules from package-lock.json with npm ci, unless
# the installed tree still matches the lockfile: npm ci wipes
# node_modules first, so skipping it is faster and leaves a concurrent
# build its toolchain. Called by build-invalid.sh and build-reference.sh;
# build.sh keeps its own copy of these lines: it is an input of every Go
# guest's fixture hash (fixtures.sha256), so editing it marks them stale.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
stamp=node_modules/.installed-package-lock.json
if ! cmp -s package-lock.json "$stamp" 2>/dev/null; then
	npm ci --no-audit --no-fund --loglevel=error
	cp package-lock.json "$stamp"
fi
