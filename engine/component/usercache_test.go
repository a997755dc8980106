package component_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// An empty CacheDir means the user cache; the test points every variable
// os.UserCacheDir reads at a temp dir, so the user's own stays untouched.
func TestEmptyCacheDirUsesTheUserCache(t *testing.T) {
	home := t.TempDir()
	for _, v := range []string{"HOME", "XDG_CACHE_HOME", "LocalAppData"} {
		t.Setenv(v, home)
	}
	ctx := context.Background()
	e, err := component.NewEngine(ctx, component.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	if _, err := e.Compile(ctx, testguest.Bytes(t, testguest.DriverCanned)); err != nil {
		t.Fatal(err)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "mur", "wasm")
	files := 0
	err = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files++
		}
		return err
	})
	if err != nil || files == 0 {
		t.Errorf("%s holds no compiled module after compiling (%v)", dir, err)
	}
}
