package artifact

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
)

// DefaultMaxDecompressedBytes is the per-entry decompression ceiling
// (500 MiB), Murmur's DEFAULT_MAX_ARTIFACT_DECOMPRESSED_BYTES.
const DefaultMaxDecompressedBytes int64 = 524288000

// MaxDecompressedEnv overrides the ceiling: a base-10 unsigned integer;
// unset or unparseable means the default, and 0 is honoured (every non-empty
// entry is refused).
const MaxDecompressedEnv = "MURMUR_MAX_ARTIFACT_DECOMPRESSED_BYTES"

// MaxEntries caps how many entries an archive may have. Murmur has no such
// cap; mur-go adds one so a crafted central directory cannot make a reader
// walk millions of entries. Real artifacts have a handful.
const MaxEntries = 10000

// MaxDecompressedBytes reads the ceiling from the environment through getenv
// (os.Getenv in production), so tests never touch the process environment.
func MaxDecompressedBytes(getenv func(string) string) int64 {
	v := getenv(MaxDecompressedEnv)
	n, err := strconv.ParseUint(strings.TrimPrefix(v, "+"), 10, 64)
	if err != nil {
		return DefaultMaxDecompressedBytes
	}
	if n > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(n)
}

// SanitizeEntryName applies Murmur's reader rule to a raw zip entry name:
// leading slashes are stripped, then any ".." component or absolute/drive
// component is refused. Backslashes count as separators too, so a name that
// would be a traversal on Windows is refused on every platform.
func SanitizeEntryName(raw string) (string, error) {
	name := strings.TrimLeft(raw, "/")
	reason := ""
	switch {
	case strings.ContainsRune(name, 0):
		reason = "contains a NUL byte"
	case strings.HasPrefix(name, `\`) || hasDrivePrefix(name):
		reason = "contains an absolute path component"
	default:
		for _, c := range strings.FieldsFunc(name, isSeparator) {
			if c == ".." {
				reason = "contains a '..' component"
				break
			}
		}
	}
	if reason != "" {
		return "", &diag.Error{Code: CodeIO, Err: ErrUnsafeEntry,
			Msg: fmt.Sprintf("zip entry '%s' has an unsafe path: %s", raw, reason)}
	}
	return name, nil
}

// ResolveWithin joins a sanitised entry name to base and checks that the
// result stays inside base. mur never extracts arbitrary entries, but code
// that must (a future extractor) has to go through this.
func ResolveWithin(base, raw string) (string, error) {
	name, err := SanitizeEntryName(raw)
	if err != nil {
		return "", err
	}
	base = filepath.Clean(base)
	p := filepath.Join(base, filepath.FromSlash(strings.ReplaceAll(name, `\`, "/")))
	rel, err := filepath.Rel(base, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", &diag.Error{Code: CodeIO, Err: ErrUnsafeEntry,
			Msg: fmt.Sprintf("zip entry '%s' resolves outside the target directory '%s'", raw, base)}
	}
	return p, nil
}

func isSeparator(r rune) bool { return r == '/' || r == '\\' }

// hasDrivePrefix reports a Windows drive ("C:") or UNC-style prefix.
func hasDrivePrefix(name string) bool {
	return len(name) >= 2 && name[1] == ':' &&
		(name[0] >= 'a' && name[0] <= 'z' || name[0] >= 'A' && name[0] <= 'Z')
}

// isRootWasmCandidate: ends in .wasm, does not start with '/', passes the
// path-safety rule and is exactly one path component.
func isRootWasmCandidate(name string) bool {
	if !strings.HasSuffix(name, ".wasm") || strings.HasPrefix(name, "/") || strings.ContainsAny(name, `/\`) {
		return false
	}
	_, err := SanitizeEntryName(name)
	return err == nil
}
