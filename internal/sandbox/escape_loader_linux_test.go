package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The ELF-loader trick: Landlock's Execute right governs execve only, so
// the allowlisted loader (granted as sh's PT_INTERP) could map and run a
// binary the capsule copied into the workdir. At both kernel classes the
// workdir is mounted noexec (and at sealed /tmp too), so the loader's
// PROT_EXEC mapping is refused.
func TestEscapeLoaderTrick(t *testing.T) { eachClass(t, escapeLoader) }

func escapeLoader(t *testing.T, j jail) {
	if s := escapeSupport(t, j.sealed); !s.Sealed {
		t.Skipf("this host cannot mount in a user namespace (%s): at scoped the loader gap stays open (SECURITY.md)", s.SealedErr)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	granted := ExecClosure(sh, os.Getenv("PATH"))
	loader := ""
	for _, f := range granted {
		if strings.Contains(filepath.Base(f), "ld-linux") {
			loader = f
		}
	}
	if loader == "" {
		t.Fatalf("no ELF loader in sh's closure %v", granted)
	}
	// uname is not allowlisted, and needs nothing sh's grants lack, so
	// only the mount's noexec can stop the loader running a copy of it.
	uname, err := exec.LookPath("uname")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ExecClosure(uname, os.Getenv("PATH"))[1:] {
		if !slices.Contains(granted, f) {
			t.Fatalf("uname needs %s, which sh's closure %v does not grant", f, granted)
		}
	}
	b, err := os.ReadFile(uname)
	if err != nil {
		t.Fatal(err)
	}
	copies := map[string]string{"./copied": filepath.Join(j.workdir, "copied"), "./sub/copied": filepath.Join(j.workdir, "sub", "copied"),
		filepath.Join(j.workdir, "copied"): filepath.Join(j.workdir, "copied")}
	if j.sealed {
		copies["/tmp/copied"] = filepath.Join(j.workdir, sealedTmp, "copied")
	}
	for name, dst := range copies {
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			got := j.run(t, Scope{}, nil, "/bin/sh", "-c", loader+" "+name+" && echo escaped || echo refused")
			if !strings.HasSuffix(got, "refused") || strings.Contains(got, "Linux") {
				t.Errorf("%s through %s: %s", name, loader, got)
			}
		})
	}
	t.Run("the workdir stays writable", func(t *testing.T) {
		if got := j.run(t, Scope{}, nil, "/bin/sh", "-c", "echo kept > notes && read x < notes && echo $x"); got != "kept" {
			t.Errorf("%q", got)
		}
	})
}
