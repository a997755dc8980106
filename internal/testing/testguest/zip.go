package testguest

import (
	"archive/zip"
	"bytes"
	"testing"
)

// Zip builds a .mur.zip-shaped archive by hand from name, content pairs, in
// order (deflated, as mur build writes them), for tests that need packages
// mur build would refuse to make.
func Zip(t testing.TB, entries ...string) []byte {
	t.Helper()
	if len(entries)%2 != 0 {
		t.Fatalf("testguest.Zip: %d arguments, want name, content pairs", len(entries))
	}
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for i := 0; i < len(entries); i += 2 {
		fw, err := w.Create(entries[i])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write([]byte(entries[i+1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
