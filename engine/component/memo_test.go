package component_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/mur-go/mur/engine/component"
)

// An embedder's memo is one per name and engine (so what it maps is
// mapped once), lives beside the compilation cache and nowhere else, and
// an engine without a cache has none.
func TestEngineMemoIsOnePerNameBesideTheCache(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "cache")
	e, err := component.NewEngine(ctx, component.Config{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	m, err := e.Memo("mur-payloads")
	if err != nil {
		t.Fatal(err)
	}
	if again, err := e.Memo("mur-payloads"); err != nil || again != m {
		t.Errorf("a second Memo of the name: %p, %v; want the first, %p", again, err, m)
	}
	k := [32]byte{1}
	m.Put(k, []byte("payload"))
	if v, ok := m.Map(k); !ok || string(v) != "payload" {
		t.Errorf("Map = %q, %v after Put", v, ok)
	}
	if matches, _ := filepath.Glob(filepath.Join(dir, "mur-payloads", "*")); len(matches) != 1 {
		t.Errorf("the memo's entries beside the cache: %v, want one", matches)
	}
	for _, name := range []string{"", ".", "..", "../elsewhere", "a/b", `a\b`, "mur-rewrites"} {
		if _, err := e.Memo(name); err == nil {
			t.Errorf("Memo(%q) opened a memo", name)
		}
	}
	none, err := component.NewEngine(ctx, component.Config{DisableCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer none.Close(ctx)
	if _, err := none.Memo("mur-payloads"); err == nil {
		t.Error("an engine without a cache opened a memo")
	}
}
