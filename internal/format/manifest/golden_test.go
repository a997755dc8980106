package manifest

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.golden")

// TestGoldenMessages pins the exact text users see for each bad manifest:
// every error (all of them, in order) and every warning.
func TestGoldenMessages(t *testing.T) {
	inputs, _ := filepath.Glob("testdata/golden/*.yaml")
	if len(inputs) == 0 {
		t.Fatal("no golden inputs")
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".yaml")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			_, warns, perr := Parse(data, FileName, ParseOptions{Env: envOf(), ScanSecrets: true})
			var b strings.Builder
			for _, w := range warns {
				b.WriteString(w.String() + "\n")
			}
			if perr != nil {
				b.WriteString(diag.Render(perr) + "\n")
			}
			got := b.String()
			gf := strings.TrimSuffix(in, ".yaml") + ".golden"
			if *update {
				if err := os.WriteFile(gf, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(gf)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGoldenMessages -update)", err)
			}
			if got != string(want) {
				t.Errorf("mismatch for %s\n--- got:\n%s--- want:\n%s", in, got, want)
			}
		})
	}
}
