package hooks

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mur-go/mur/internal/base/confined"
)

// Checkpoint signing (wit.md §6.10): the checkpoint files a hook keeps in
// the accessible workdir are signed with a per-workdir key that guests
// cannot reach, so a tool that rewrites them between sessions is caught
// on the next session start and its file quarantined.

// checkpointFiles are the files signed, under checkpoints/.
var checkpointFiles = [...]string{"summary.md", "plan.json", "decisions.json"}

const checkpointDir = "checkpoints"

// Checkpoints signs and verifies one accessible workdir's checkpoints.
type Checkpoints struct {
	// Workdir is the accessible workdir; Home the user's home (the key
	// lives under it, out of every guest's reach).
	Workdir, Home string
}

// keyPath is $HOME/.murmur/checkpoint-keys/<sha256(canonical workdir)>.key.
func (c Checkpoints) keyPath() (string, error) {
	if c.Home == "" {
		return "", errors.New("no home directory (HOME and USERPROFILE are unset)")
	}
	home, err := filepath.Abs(c.Home)
	if err != nil {
		return "", err
	}
	dir, err := filepath.EvalSymlinks(c.Workdir)
	if err != nil {
		return "", err
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(dir))
	return filepath.Join(home, ".murmur", "checkpoint-keys", hex.EncodeToString(sum[:])+".key"), nil
}

// key reads the workdir's key, creating it (0600) on first use and
// regenerating one of the wrong length.
func (c Checkpoints) key() ([]byte, error) {
	path, err := c.keyPath()
	if err != nil {
		return nil, err
	}
	if k, err := os.ReadFile(path); err == nil && len(k) == 32 {
		return k, nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		return nil, err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, k, 0o600); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, err
	}
	return k, nil
}

func mac(key, data []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write(data)
	return hex.EncodeToString(m.Sum(nil))
}

// open is a Root of the workdir when it has a checkpoints/ directory (a
// link there counts as none). Everything goes through a Root of the workdir and
// never follows a final link, because guests write there.
func (c Checkpoints) open() (*os.Root, bool, error) {
	root, err := os.OpenRoot(c.Workdir)
	if err != nil {
		return nil, false, err
	}
	fi, err := root.Lstat(checkpointDir)
	if err != nil || !fi.IsDir() {
		root.Close()
		return nil, false, nil
	}
	return root, true, nil
}

func exists(root *os.Root, rel string) bool {
	_, err := root.Lstat(rel)
	return err == nil
}

// Sign writes <file>.sig (hex HMAC-SHA256, 0644, via .tmp and rename)
// for every checkpoint file present.
func (c Checkpoints) Sign() error {
	root, ok, err := c.open()
	if err != nil || !ok {
		return err
	}
	defer root.Close()
	key, err := c.key()
	if err != nil {
		return err
	}
	for _, f := range checkpointFiles {
		rel := filepath.Join(checkpointDir, f)
		if !exists(root, rel) {
			continue
		}
		data, err := confined.ReadFile(root, rel)
		if err != nil {
			// A link or anything but a regular file is never signed, so
			// the next session start quarantines it.
			continue
		}
		if err := confined.WriteFile(root, rel+".sig.tmp", []byte(mac(key, data)), 0o644, os.O_CREATE|os.O_TRUNC); err != nil {
			return err
		}
		if err := root.Rename(rel+".sig.tmp", rel+".sig"); err != nil {
			return err
		}
	}
	return nil
}

// Verify checks every checkpoint file present against its sidecar; one
// with a missing, undecodable or wrong signature is renamed to
// <file>.rejected (replacing an older one) and its sidecar removed. It
// returns the names quarantined. A key error verifies nothing.
func (c Checkpoints) Verify() ([]string, error) {
	root, ok, err := c.open()
	if err != nil || !ok {
		return nil, err
	}
	defer root.Close()
	key, err := c.key()
	if err != nil {
		return nil, err
	}
	var rejected []string
	for _, f := range checkpointFiles {
		rel := filepath.Join(checkpointDir, f)
		if !exists(root, rel) {
			continue
		}
		if c.valid(root, rel, key) {
			continue
		}
		_ = root.Remove(rel + ".rejected")
		if err := root.Rename(rel, rel+".rejected"); err != nil {
			return rejected, err
		}
		_ = root.Remove(rel + ".sig")
		rejected = append(rejected, rel)
	}
	return rejected, nil
}

func (c Checkpoints) valid(root *os.Root, rel string, key []byte) bool {
	data, err := confined.ReadFile(root, rel)
	if err != nil {
		return false
	}
	sig, err := confined.ReadFile(root, rel+".sig")
	if err != nil {
		return false
	}
	want, err := hex.DecodeString(strings.TrimSpace(string(sig)))
	if err != nil {
		return false
	}
	got, _ := hex.DecodeString(mac(key, data))
	return hmac.Equal(got, want)
}

// checkpoints is the session's signer.
func (r *Runtime) checkpoints() Checkpoints {
	home := r.opts.Home
	if home == "" {
		for _, n := range []string{"HOME", "USERPROFILE"} {
			if v, ok := r.opts.Getenv(n); ok && v != "" {
				home = v
				break
			}
		}
	}
	return Checkpoints{Workdir: r.s.AccessibleDir, Home: home}
}

// verifyCheckpoints runs before on-session-start; a key failure skips
// verification (fail-open) and says so.
func (r *Runtime) verifyCheckpoints() {
	rejected, err := r.checkpoints().Verify()
	if err != nil {
		r.bootstrap(fmt.Sprintf("[checkpoint] signing key unavailable, skipping checkpoint verification: %v", err))
	}
	if len(rejected) > 0 {
		r.bootstrap("[checkpoint] rejected unsigned/tampered checkpoint file(s): " + strings.Join(rejected, ", "))
	}
}

// signCheckpoints runs after on-session-end and after a committed
// compaction.
func (r *Runtime) signCheckpoints() {
	if err := r.checkpoints().Sign(); err != nil {
		r.bootstrap(fmt.Sprintf("[checkpoint] signing key unavailable, skipping checkpoint signing: %v", err))
	}
}
