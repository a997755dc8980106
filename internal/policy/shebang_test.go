package policy

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReadShebangAndLookPath(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string, mode os.FileMode) string {
		p := filepath.Join(bin, name)
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	py := write("python3", "\x7fELF", 0o755)
	write("plain", "data", 0o644)
	tests := []struct {
		name, body string
		want       Shebang
		ok         bool
	}{
		{"direct", "#!/bin/sh -e\necho", Shebang{Interp: "/bin/sh"}, true},
		{"env found", "#!/usr/bin/env python3\n", Shebang{Interp: "/usr/bin/env", EnvName: "python3", EnvPath: py}, true},
		{"env missing", "#!/usr/bin/env nosuch\n", Shebang{Interp: "/usr/bin/env", EnvName: "nosuch"}, true},
		{"not a script", "\x7fELF", Shebang{}, false},
		{"empty line", "#!\n", Shebang{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := write("s", tt.body, 0o755)
			got, ok := ReadShebang(p, bin)
			if got != tt.want || ok != tt.ok {
				t.Errorf("ReadShebang = %+v, %v; want %+v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
	// A relative PATH entry never resolves: it would name whatever the
	// runtime's working directory holds.
	t.Chdir(dir)
	if got := LookPath("python3", "bin"+string(os.PathListSeparator)+"."); got != "" {
		t.Errorf("relative PATH entry resolved to %q", got)
	}
	if got := LookPath("python3", bin); got != py {
		t.Errorf("LookPath = %q, want %q", got, py)
	}
	if got := LookPath("plain", bin); got != "" {
		t.Errorf("a file without an execute bit resolved: %q", got)
	}
}
