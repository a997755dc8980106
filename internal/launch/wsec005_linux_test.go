package launch_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// W-SEC-005 tells a shell capsule that its commands get a network
// namespace of their own only where the host makes one. mur doctor as
// this uid and, as root, as an unprivileged one (who cannot make user
// namespaces on hosts like CI's): whichever the probe found, the warning
// agrees with it.
func TestWSec005SaysWhatTheHostDoes(t *testing.T) {
	uids := []int{os.Geteuid()}
	if os.Geteuid() == 0 {
		uids = append(uids, 65534)
	}
	for _, uid := range uids {
		tree, err := os.MkdirTemp("", "mur-wsec005-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(tree) })
		mur, dir := filepath.Join(tree, "mur"), filepath.Join(tree, "capsule")
		if err := copyFile(env.mur, mur); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "murmur.yaml"), []byte("name: c\nversion: '1'\ncapabilities:\n  shell:\n    allow: [sh]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := chownTree(tree, uid, uid); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(mur, "doctor", "--json")
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(tree, "home"), "MUR_CACHE_DIR=" + filepath.Join(tree, "cache")}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
		out, _ := cmd.Output()
		var r struct {
			Host    struct{ NetNS bool } `json:"host"`
			Capsule struct{ Warnings []string }
		}
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("uid %d: %v\n%s", uid, err, out)
		}
		var w string
		for _, s := range r.Capsule.Warnings {
			if strings.Contains(s, "W-SEC-005") {
				w = s
			}
		}
		claims := strings.Contains(w, "network namespace of their own") && !strings.Contains(w, "cannot give them")
		if w == "" || claims != r.Host.NetNS {
			t.Errorf("uid %d, netns %v: W-SEC-005 %q", uid, r.Host.NetNS, w)
		}
		t.Logf("uid %d: netns %v", uid, r.Host.NetNS)
	}
}
