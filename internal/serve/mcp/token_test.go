package mcp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/serve/mcp"
)

func TestCheckToken(t *testing.T) {
	tests := []struct {
		token string
		ok    bool
	}{
		{mcp.NewToken(), true},
		{"0123456789abcdef", true},
		{"short", false},
		{"0123456789 abcdef", false},
		{"0123456789abcdef\n", false},
		{"0123456789abcdefé", false},
		{strings.Repeat("a", 2000), false},
	}
	for _, tt := range tests {
		if err := mcp.CheckToken(tt.token); (err == nil) != tt.ok {
			t.Errorf("CheckToken(%q) = %v, want ok %v", tt.token, err, tt.ok)
		}
	}
	if a, b := mcp.NewToken(), mcp.NewToken(); a == b || len(a) != 64 {
		t.Errorf("NewToken gave %q then %q", a, b)
	}
}

// A token file is read only when it is a regular file nobody but its
// owner may read or write.
func TestReadTokenFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	token := mcp.NewToken()
	tests := []struct {
		name, path, want string
	}{
		{"0600 with a newline", write("ok", token+"\n", 0o600), token},
		{"0400", write("ro", token, 0o400), token},
		{"readable by others", write("world", token, 0o644), ""},
		{"readable by the group", write("group", token, 0o640), ""},
		{"too short", write("short", "abc\n", 0o600), ""},
		{"empty", write("empty", "\n", 0o600), ""},
		{"a directory", dir, ""},
		{"missing", filepath.Join(dir, "missing"), ""},
	}
	for _, tt := range tests {
		got, err := mcp.ReadTokenFile(tt.path)
		if got != tt.want || (err == nil) != (tt.want != "") {
			t.Errorf("%s: ReadTokenFile = %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
}

// The generated token's file is 0600 in a directory of the user's own;
// it never replaces a file, and a directory others may write to (where
// the file could be swapped) or a link is refused.
func TestWriteTokenFile(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "state", "mcp")
	token := mcp.NewToken()
	path, remove, err := mcp.WriteTokenFile(dir, "ses_1.token", token)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %#o, want 0600", fi.Mode().Perm())
	}
	if di, _ := os.Stat(dir); di.Mode().Perm() != 0o700 {
		t.Errorf("token directory mode %#o, want 0700", di.Mode().Perm())
	}
	if got, err := mcp.ReadTokenFile(path); got != token {
		t.Errorf("reading the written file back: %q, %v", got, err)
	}
	if _, _, err := mcp.WriteTokenFile(dir, "ses_1.token", mcp.NewToken()); err == nil {
		t.Error("WriteTokenFile replaced an existing file")
	}
	remove()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the token file is still there after remove: %v", err)
	}

	open := filepath.Join(base, "open")
	if err := os.Mkdir(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, _, err := mcp.WriteTokenFile(open, "t", token); err == nil || !strings.Contains(err.Error(), "writable by you alone") {
		t.Errorf("a world-writable token directory: %v", err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if _, _, err := mcp.WriteTokenFile(link, "t", token); err == nil {
		t.Error("a token directory reached through a link was used")
	}
	planted := filepath.Join(base, "target")
	if err := os.Symlink(planted, filepath.Join(dir, "planted")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := mcp.WriteTokenFile(dir, "planted", token); err == nil {
		t.Error("the token was written through a planted link")
	}
	if _, err := os.Stat(planted); !os.IsNotExist(err) {
		t.Errorf("the planted link's target was created: %v", err)
	}
}
