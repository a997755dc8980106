package cli

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// cacheFiles lists the regular files under dir.
func cacheFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			out = append(out, p)
		}
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}

// TestInstallCompilesForTheFirstRun: mur install leaves the component's
// machine code in the compilation cache, so the first run compiles
// nothing: compiling the installed payload again adds no cache entry.
// --no-compile leaves the cache as it was.
func TestInstallCompilesForTheFirstRun(t *testing.T) {
	for _, tc := range []struct {
		name     string
		flags    []string
		compiled bool
	}{
		{"default", nil, true},
		{"no-compile", []string{"--no-compile"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, capsule := sandbox(t, "canned-tool@0.1.0")
			cache := filepath.Join(t.TempDir(), "cache")
			t.Setenv(cacheDirEnv, cache)
			zip := buildExampleTool(t)
			url, _ := remote(t)
			mur(t, "publish", zip, "--registry", url).want(t, 0, "Published canned-tool@0.1.0\n", "")
			o := mur(t, append([]string{"install", "--registry", url}, tc.flags...)...)
			o.want(t, 0, "Installed canned-tool@0.1.0", "")
			const line = "compiled 1 WASM component for this machine"
			if got := strings.Contains(o.stdout, line); got != tc.compiled {
				t.Fatalf("stdout says it compiled: %v, want %v:\n%s", got, tc.compiled, o.stdout)
			}
			before := cacheFiles(t, cache)
			if tc.compiled != (len(before) > 0) {
				t.Fatalf("cache after install holds %d files, want some: %v", len(before), tc.compiled)
			}
			stored := filepath.Join(capsule, ".murmur", "artifacts", "canned-tool", "0.1.0", "canned-tool-0.1.0.mur.zip")
			recompile(t, stored, cache)
			after := cacheFiles(t, cache)
			if tc.compiled && !slices.Equal(before, after) {
				t.Errorf("the first run compiled again: cache went from %v to %v", before, after)
			}
			if !tc.compiled && len(after) == 0 {
				t.Error("recompile wrote nothing: the check above proves nothing")
			}
		})
	}
}

// recompile compiles the package's component as a first run would.
func recompile(t *testing.T, pkgPath, cache string) {
	t.Helper()
	data, err := os.ReadFile(pkgPath)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := artifact.Open(data, artifact.DefaultMaxDecompressedBytes)
	if err != nil {
		t.Fatal(err)
	}
	_, wasm, err := pkg.RootWasm()
	if err != nil {
		t.Fatal(err)
	}
	testguest.CompileIn(t, cache, wasm).Close(context.Background())
}

// TestCompileNotice: a compile that outlasts the delay gets one line
// naming the component; one that ends first gets none.
func TestCompileNotice(t *testing.T) {
	for _, fires := range []bool{true, false} {
		var out strings.Builder
		after := func(_ time.Duration, f func()) *time.Timer {
			if fires {
				f()
			}
			return time.NewTimer(time.Hour)
		}
		compileNotice(&out, after)("word-stats@0.1.0")()
		if got := strings.Contains(out.String(), "compiling word-stats@0.1.0 for this machine"); got != fires {
			t.Errorf("fired %v: wrote %q", fires, out.String())
		}
	}
}
