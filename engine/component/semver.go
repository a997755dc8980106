package component

import (
	"strconv"
	"strings"
)

// splitVersion splits "wasi:io/streams@0.2.6" into "wasi:io/streams" and
// "0.2.6" ("" when unversioned).
func splitVersion(name string) (base, version string) {
	if i := strings.LastIndexByte(name, '@'); i >= 0 {
		return name[:i], name[i+1:]
	}
	return name, ""
}

// compatKey is the part of a version that must match for two instance
// names to bind under the component model's semver rules: the major version
// from 1 on, the minor while the major is 0, and the whole version for
// 0.0.x and for anything with pre-release or build tags. ok is false for
// versions that are not semver.
func compatKey(version string) (key string, ok bool) {
	if strings.ContainsAny(version, "-+") {
		return version, true
	}
	parts := strings.Split(version, ".")
	if len(parts) != 3 {
		return "", false
	}
	nums := make([]uint64, 3)
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 10, 64)
		if err != nil || (len(p) > 1 && p[0] == '0') {
			return "", false
		}
		nums[i] = n
	}
	switch {
	case nums[0] > 0:
		return parts[0], true
	case nums[1] > 0:
		return "0." + parts[1], true
	}
	return version, true
}

// instanceKey maps an instance name to the key under which semver-compatible
// names meet: "wasi:io/streams@0.2" for 0.2.x. Unversioned names map to
// themselves and so never meet a versioned one.
func instanceKey(name string) string {
	base, v := splitVersion(name)
	if v == "" {
		return name
	}
	if k, ok := compatKey(v); ok {
		return base + "@" + k
	}
	return name
}
