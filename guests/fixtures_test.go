// Package guests holds the sources of the test guest components and the
// built fixtures under out/. This test keeps the two in step without Node:
// it recomputes what build.mjs recorded in fixtures.sha256.
package guests

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const rebuildHint = "run guests/build.sh and commit guests/out and guests/fixtures.sha256"

type fixture struct {
	out, wasmHash, srcHash string
	inputs                 []string
}

func readFixtures(t *testing.T) []fixture {
	t.Helper()
	f, err := os.Open("fixtures.sha256")
	if err != nil {
		t.Fatalf("%v; %s", err, rebuildHint)
	}
	defer f.Close()
	var fixtures []fixture
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 4 {
			t.Fatalf("malformed fixtures.sha256 line %q; %s", line, rebuildHint)
		}
		fixtures = append(fixtures, fixture{fields[0], fields[1], fields[2], fields[3:]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return fixtures
}

func TestFixturesAreFresh(t *testing.T) {
	fixtures := readFixtures(t)
	recorded := map[string]bool{}
	for _, fx := range fixtures {
		recorded[fx.out] = true
		t.Run(strings.TrimSuffix(filepath.Base(fx.out), ".wasm"), func(t *testing.T) {
			src, err := sourceHash(fx.inputs)
			if err != nil {
				t.Fatalf("%v; %s", err, rebuildHint)
			}
			if src != fx.srcHash {
				t.Errorf("sources of %s changed since it was built; %s", fx.out, rebuildHint)
			}
			wasm, err := hashFile(fx.out)
			if err != nil {
				t.Fatalf("%v; %s", err, rebuildHint)
			}
			if wasm != fx.wasmHash {
				t.Errorf("%s differs from what guests/build.sh produced; %s", fx.out, rebuildHint)
			}
		})
	}

	// A source or output nobody recorded is as stale as a changed one.
	wats, _ := filepath.Glob("wat/*.wat")
	for _, wat := range wats {
		out := "out/" + strings.TrimSuffix(filepath.Base(wat), ".wat") + ".wasm"
		if !recorded[out] {
			t.Errorf("%s has no built fixture; %s", wat, rebuildHint)
		}
	}
	outs, _ := filepath.Glob("out/*.wasm")
	for _, out := range outs {
		if !recorded[filepath.ToSlash(out)] {
			t.Errorf("%s is not produced by guests/build.sh; delete it or %s", out, rebuildHint)
		}
	}
}

// sourceHash mirrors build.mjs: sha256 over "<sha256 of file>  <path>\n" for
// every regular file the globs match, deduplicated and sorted by path.
func sourceHash(globs []string) (string, error) {
	var files []string
	for _, glob := range globs {
		matches, err := filepath.Glob(filepath.FromSlash(glob))
		if err != nil {
			return "", err
		}
		n := 0
		for _, m := range matches {
			if fi, err := os.Stat(m); err == nil && fi.Mode().IsRegular() {
				files = append(files, filepath.ToSlash(m))
				n++
			}
		}
		if n == 0 {
			return "", fmt.Errorf("input glob %s matches nothing", glob)
		}
	}
	slices.Sort(files)
	var manifest strings.Builder
	for _, file := range slices.Compact(files) {
		h, err := hashFile(file)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&manifest, "%s  %s\n", h, file)
	}
	sum := sha256.Sum256([]byte(manifest.String()))
	return hex.EncodeToString(sum[:]), nil
}

func hashFile(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}
