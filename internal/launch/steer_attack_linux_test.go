//go:build linux

package launch_test

// A hostile local user against naming a served capsule, through the mur
// binary: a capsule of the victim's died without removing its entry in
// ~/.murmur/running, and portthief (testdata/portthief), running as
// another uid, took its port. Every command that resolves the capsule's
// name must refuse before sending anything: MURMUR_A2A_TOKEN would go to
// the thief. And a registry others can write to, where the thief planted
// an entry of its own, is refused whole.

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/base/running"
)

func TestNamedCapsuleTokenNeverReachesAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("a second uid to attack from needs root to create")
	}
	tree, err := os.MkdirTemp("", "mur-steer-attack-") // t.TempDir's parent is closed to other users
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tree) })
	if err := os.Chmod(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	mur, thief := filepath.Join(tree, "mur"), filepath.Join(tree, "portthief")
	if err := copyFile(env.mur, mur); err != nil {
		t.Fatal(err)
	}
	if err := goBuild(thief, "./internal/launch/testdata/portthief"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		uid  int
	}{{"mur as root", 0}, {"mur as an unprivileged user", victimUID}} {
		t.Run(c.name, func(t *testing.T) {
			port, requests := startPortThief(t, thief)
			home := filepath.Join(tree, "home-"+strconv.Itoa(c.uid))
			stale := running.Entry{SessionID: "ses_0000000000000000000000000000dead", PID: os.Getpid(),
				URL: "localhost:" + strconv.Itoa(port), Name: "victim", Version: "0.1.0", Started: time.Now(), Token: true}
			if _, err := running.Register(running.Dir(home), stale); err != nil {
				t.Fatal(err)
			}
			if err := chownTree(home, c.uid, c.uid); err != nil {
				t.Fatal(err)
			}
			runAs := func(args ...string) (string, int) {
				cmd := exec.Command(mur, args...)
				cmd.Dir = home
				cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "MURMUR_A2A_TOKEN=tok-of-the-victim"}
				if c.uid != 0 {
					cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(c.uid), Gid: uint32(c.uid)}}
				}
				out, _ := cmd.CombinedOutput()
				return string(out), cmd.ProcessState.ExitCode()
			}
			for _, args := range [][]string{
				{"send", "victim", "hello"}, {"send", "dead", "hello"}, {"send", "@1", "hello"},
				{"watch", "victim"}, {"cancel", "victim", "tsk_x"}, {"cancel", "tsk_x"}, {"stop", "victim"}, {"ps"},
			} {
				out, code := runAs(args...)
				if code != 1 || !strings.Contains(out, "is listened on by uid 65534, not by you") {
					t.Errorf("mur %s: exit %d, want 1 and the refusal\n%s", strings.Join(args, " "), code, out)
				}
			}

			// The thief makes the registry writable by all and plants a
			// capsule of its own: the registry is refused whole.
			dir := running.Dir(home)
			if err := os.Chmod(dir, 0o777); err != nil {
				t.Fatal(err)
			}
			planted := stale
			planted.SessionID, planted.Name, planted.Started = "ses_0000000000000000000000000000beef", "helper", time.Now()
			if _, err := running.Register(dir, planted); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(filepath.Join(dir, planted.SessionID+".json"), thiefUID, thiefUID); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"send", "helper", "hello"}, {"ps"}} {
				out, code := runAs(args...)
				if code != 1 || !strings.Contains(out, "writable by you alone") {
					t.Errorf("mur %s in a registry others can write: exit %d, want 1 and the refusal\n%s", strings.Join(args, " "), code, out)
				}
			}
			if got := requests(); len(got) > 0 {
				t.Errorf("the thief was sent %d requests:\n%s", len(got), strings.Join(got, "\n"))
			}
		})
	}
}

// startPortThief runs portthief as thiefUID on a free loopback port and
// returns the port and a function that stops it and returns the requests
// it saw.
func startPortThief(t *testing.T, thief string) (int, func() []string) {
	t.Helper()
	cmd := exec.Command("setpriv", "--reuid", strconv.Itoa(thiefUID), "--regid", strconv.Itoa(thiefUID), "--clear-groups", thief)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	if !sc.Scan() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("portthief did not start: %v", sc.Err())
	}
	port, err := strconv.Atoi(strings.TrimPrefix(sc.Text(), "port "))
	if err != nil {
		t.Fatalf("portthief said %q", sc.Text())
	}
	lines := make(chan []string, 1)
	go func() {
		var got []string
		for sc.Scan() {
			got = append(got, sc.Text())
		}
		lines <- got
	}()
	stop := func() []string {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return <-lines
	}
	once := sync.OnceValue(stop)
	t.Cleanup(func() { once() })
	return port, once
}
