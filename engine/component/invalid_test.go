package component_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/component/internal/binary"
	"github.com/mur-go/mur/internal/testing/testguest"
)

const invalidDir = "testdata/invalid"

// Every component under testdata/invalid breaks exactly one rule; Compile
// must refuse it with that rule (or, for features wazero lacks, as not
// supported) and point at a byte offset inside the binary.
func TestCompileRejectsInvalidComponents(t *testing.T) {
	tests := []struct {
		name string
		// One of: the rule of a *component.ValidationError; a substring of
		// the feature of a *binary.NotSupportedError; a substring of the
		// message of a *binary.DecodeError (the binary format's own
		// conditions, such as non-empty records, are checked by decoding).
		rule, unsupported, decode string
	}{
		{name: "names-label", rule: "names.extern"},
		{name: "names-unique-case", rule: "names.unique"},
		{name: "names-unique-method", rule: "names.unique"},
		{name: "names-unique-instance-type", rule: "names.unique"},
		{name: "names-extern", rule: "names.extern"},
		{name: "names-version", rule: "names.version"},
		{name: "names-version-suffix", rule: "names.version-suffix"},
		{name: "names-implements", rule: "names.implements"},
		{name: "names-implements-func", rule: "names.implements"},
		{name: "names-annotation-no-resource", rule: "names.annotation"},
		{name: "names-annotation-not-func", rule: "names.annotation"},
		{name: "names-annotation-constructor", rule: "names.annotation"},
		{name: "names-annotation-unused-component", rule: "names.annotation"},
		{name: "names-annotation-method", rule: "names.annotation"},
		{name: "names-annotation-other-resource", rule: "names.annotation"},
		{name: "names-core-unique", rule: "names.core-unique"},
		{name: "names-arg-unique", rule: "names.arg-unique"},
		{name: "types-empty-record", decode: "record type with no fields"},
		{name: "types-empty-variant", decode: "variant type with no cases"},
		{name: "types-empty-enum", decode: "enum type with no cases"},
		{name: "types-empty-flags", decode: "flags type with 0 flags"},
		{name: "types-empty-tuple", decode: "tuple type with no elements"},
		{name: "types-flags-count", decode: "flags type with 33 flags"},
		{name: "types-field-label", rule: "names.label"},
		{name: "types-field-unique", rule: "names.unique"},
		{name: "types-case-unique", rule: "names.unique"},
		{name: "types-param-unique", rule: "names.unique"},
		{name: "types-own-not-resource", rule: "types.handle"},
		{name: "types-own-aliased-func", rule: "types.handle"},
		{name: "types-list-aliased-func", rule: "types.valtype"},
		{name: "types-borrow-result", rule: "types.borrow-result"},
		{name: "types-borrow-export", rule: "types.borrow-export"},
		{name: "types-resource-in-type", rule: "types.resource-in-type"},
		{name: "types-resource-rep", decode: "resource representation"},
		{name: "types-valtype", rule: "types.valtype"},
		{name: "index-bounds", rule: "index.bounds"},
		{name: "index-bounds-unused-component", rule: "index.bounds"},
		{name: "index-bounds-canon-memory", rule: "index.bounds"},
		{name: "index-sort", rule: "index.sort"},
		{name: "alias-outer-count", rule: "alias.outer-count"},
		{name: "alias-outer-resource", rule: "alias.outer-resource"},
		{name: "alias-core-export", rule: "alias.core-export"},
		{name: "alias-core-export-sort", rule: "alias.core-export"},
		{name: "alias-export-missing", rule: "alias.export"},
		{name: "alias-export-sort", rule: "alias.export"},
		{name: "externs-ascription", rule: "externs.ascription"},
		{name: "externs-ascription-instance", rule: "externs.ascription"},
		{name: "externs-ascription-type", rule: "externs.ascription"},
		{name: "externs-visibility-record", rule: "externs.visibility"},
		{name: "externs-visibility-resource", rule: "externs.visibility"},
		{name: "canon-memory-lift", rule: "canon.memory"},
		{name: "canon-memory-lower", rule: "canon.memory"},
		{name: "canon-memory-unused-component", rule: "canon.memory"},
		{name: "canon-realloc-lift", rule: "canon.realloc"},
		{name: "canon-realloc-lower", rule: "canon.realloc"},
		{name: "canon-signature", rule: "canon.signature"},
		{name: "canon-signature-lowered", rule: "canon.signature"},
		{name: "canon-realloc-type", rule: "canon.realloc-type"},
		{name: "canon-realloc-type-lowered", rule: "canon.realloc-type"},
		{name: "canon-post-return-type", rule: "canon.post-return-type"},
		{name: "canon-post-return-lower", rule: "canon.post-return-lower"},
		{name: "canon-dtor-type", rule: "canon.dtor-type"},
		{name: "canon-resource-local", rule: "canon.resource-local"},
		{name: "canon-resource-not-resource", rule: "index.sort"},
		{name: "core-import-type", rule: "core.import-type"},
		{name: "core-import-type-instance", rule: "core.import-type"},
		{name: "core-import-memory", rule: "core.import-type"},
		{name: "core-instantiate-arg", rule: "core.instantiate-arg"},
		{name: "core-instantiate-export", rule: "core.instantiate-arg"},
		{name: "core-module-unused", rule: "core.module"},
		{name: "core-multi-memory", unsupported: "multi-memory"},
		{name: "instantiate-type", rule: "instantiate.type"},
		{name: "instantiate-resource", rule: "instantiate.type"},
		{name: "instantiate-instance-resource", rule: "instantiate.type"},
		{name: "instantiate-arg", rule: "instantiate.arg"},
		{name: "instantiate-core-module-export", rule: "instantiate.type"},
		{name: "instantiate-core-module-import", rule: "instantiate.type"},
		{name: "instantiate-core-module-kind", rule: "instantiate.type"},
	}
	e := newEngine(t)
	covered := map[string]bool{}
	for _, tt := range tests {
		covered[tt.name] = true
		t.Run(tt.name, func(t *testing.T) {
			wasm, err := os.ReadFile(filepath.Join(invalidDir, tt.name+".wasm"))
			if err != nil {
				t.Fatalf("%v (run guests/build-invalid.sh)", err)
			}
			_, err = e.Compile(context.Background(), wasm)
			if err == nil {
				t.Fatal("compiled; want it rejected")
			}
			if tt.decode != "" {
				var de *binary.DecodeError
				if !errors.As(err, &de) || !strings.Contains(de.Error(), tt.decode) || de.Offset <= 0 {
					t.Fatalf("got %v; want a decode error about %s", err, tt.decode)
				}
				return
			}
			if tt.unsupported != "" {
				var ns *binary.NotSupportedError
				if !errors.As(err, &ns) || !strings.Contains(ns.Feature, tt.unsupported) {
					t.Fatalf("got %v; want not supported: %s", err, tt.unsupported)
				}
				return
			}
			var ve *component.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("got %T %v; want a *component.ValidationError", err, err)
			}
			if ve.Rule != tt.rule {
				t.Fatalf("rule %s (%v); want %s", ve.Rule, err, tt.rule)
			}
			if ve.Offset <= 0 || ve.Offset >= len(wasm) {
				t.Fatalf("offset %d outside the %d-byte binary", ve.Offset, len(wasm))
			}
		})
	}
	wats, _ := filepath.Glob(filepath.Join(invalidDir, "*.wat"))
	for _, w := range wats {
		if name := strings.TrimSuffix(filepath.Base(w), ".wat"); !covered[name] {
			t.Errorf("%s has no test case", w)
		}
	}
}

// The encoded components must be what guests/build-invalid.sh makes of the
// WAT sources next to them.
func TestTestdataFixturesAreFresh(t *testing.T) {
	for _, dir := range []string{invalidDir, validDir} {
		t.Run(filepath.Base(dir), func(t *testing.T) { checkFixturesFresh(t, dir) })
	}
}

func checkFixturesFresh(t *testing.T, dir string) {
	hint := "run guests/build-invalid.sh and commit " + filepath.ToSlash(filepath.Join("component", dir))
	recorded := pinnedPairs(t, filepath.Join(dir, "sums.sha256"), hint, func(name string) [2]string {
		return [2]string{filepath.Join(dir, name+".wat"), filepath.Join(dir, name+".wasm")}
	})
	wats, _ := filepath.Glob(filepath.Join(dir, "*.wat"))
	for _, w := range wats {
		if name := strings.TrimSuffix(filepath.Base(w), ".wat"); recorded[name] == "" {
			t.Errorf("%s was never encoded; %s", w, hint)
		}
	}
}

// Validation must not refuse anything real tooling produces: every test
// guest still compiles.
func TestValidGuestsCompile(t *testing.T) {
	e := newEngine(t)
	outs, _ := filepath.Glob(testguest.Path("*"))
	if len(outs) == 0 {
		t.Fatal("no guests found")
	}
	for _, out := range outs {
		name := strings.TrimSuffix(filepath.Base(out), ".wasm")
		t.Run(name, func(t *testing.T) {
			if _, err := e.Compile(context.Background(), testguest.Bytes(t, name)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// pinnedPairs reads a sums file of "NAME SUM1 SUM2" lines (# starts a
// comment) and checks the two files paths(NAME) gives against those
// sums, failing the test with hint on any difference; it returns each
// NAME's first sum.
func pinnedPairs(t *testing.T, sums, hint string, paths func(name string) [2]string) map[string]string {
	t.Helper()
	f, err := os.Open(sums)
	if err != nil {
		t.Fatalf("%v; %s", err, hint)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		if len(fields) != 3 {
			t.Fatalf("malformed line %q; %s", sc.Text(), hint)
		}
		for i, path := range paths(fields[0]) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v; %s", err, hint)
			}
			if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != fields[1+i] {
				t.Errorf("%s changed since it was encoded; %s", path, hint)
			}
		}
		out[fields[0]] = fields[1]
	}
	return out
}
