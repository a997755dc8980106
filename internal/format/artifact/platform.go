package artifact

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
)

// Platform is an (os, arch) pair in Murmur's spelling: darwin/linux and
// aarch64/x86_64. In JSON it is a two-element array ["linux","x86_64"].
type Platform struct{ OS, Arch string }

// String is "<os>-<arch>", the form used in file names and query strings.
func (p Platform) String() string { return p.OS + "-" + p.Arch }

// ParsePlatform splits at the first '-'; both halves must be non-blank.
func ParsePlatform(s string) (Platform, error) {
	os, arch, ok := strings.Cut(s, "-")
	if !ok || strings.TrimSpace(os) == "" || strings.TrimSpace(arch) == "" {
		return Platform{}, fmt.Errorf("invalid platform '%s' (expected os-arch, e.g. darwin-aarch64)", s)
	}
	return Platform{os, arch}, nil
}

// UnknownPlatform is what CurrentPlatform reports on hosts Murmur does not
// ship native artifacts for.
const UnknownPlatform = "unknown"

// CurrentPlatform names the host platform, or "unknown".
func CurrentPlatform() string { return platformOf(runtime.GOOS, runtime.GOARCH) }

func platformOf(goos, goarch string) string {
	arch := map[string]string{"arm64": "aarch64", "amd64": "x86_64"}[goarch]
	if arch == "" || (goos != "darwin" && goos != "linux") {
		return UnknownPlatform
	}
	return goos + "-" + arch
}

func (p Platform) MarshalJSON() ([]byte, error) { return json.Marshal([2]string{p.OS, p.Arch}) }

func (p *Platform) UnmarshalJSON(b []byte) error {
	var pair [2]string
	if err := json.Unmarshal(b, &pair); err != nil {
		return fmt.Errorf("platform must be [os, arch]: %w", err)
	}
	p.OS, p.Arch = pair[0], pair[1]
	return nil
}
