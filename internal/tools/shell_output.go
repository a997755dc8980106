package tools

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mur-go/mur/internal/base/confined"
)

// ShellOutputBytes is how much of each stream of a shell command the
// model sees (security.md §5.3); past it, the full output goes to a log.
const ShellOutputBytes = 16384

// shellLogDir is where truncated commands' full output goes, relative to
// the accessible workdir.
const shellLogDir = "logs"

// shellStream captures one stream of a shell command: the first
// ShellOutputBytes in memory and everything past them in an unnamed
// spill file under logs/, so a command printing gigabytes costs disk,
// never mur's memory. Past spillMax spilled bytes (0: no cap) the rest is
// read and dropped, so the full log cannot outgrow the file size a
// command may itself write.
type shellStream struct {
	root     *os.Root
	spillMax int64

	head    []byte
	spill   *os.File
	spilled int64
	dropped int64
	err     error
}

// Write keeps draining even after a spill failure: a command must never
// block on, or die of, a pipe nobody reads.
func (s *shellStream) Write(p []byte) (int, error) {
	n := len(p)
	if room := ShellOutputBytes - len(s.head); room > 0 {
		k := min(room, len(p))
		s.head = append(s.head, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 {
		return n, nil
	}
	if s.spillMax > 0 && s.spilled+int64(len(p)) > s.spillMax {
		keep := max(s.spillMax-s.spilled, 0)
		s.dropped += int64(len(p)) - keep
		p = p[:keep]
	}
	if len(p) == 0 || s.err != nil {
		s.dropped += int64(len(p))
		return n, nil
	}
	if s.spill == nil {
		if s.spill, s.err = openSpill(s.root); s.err != nil {
			s.dropped += int64(len(p))
			return n, nil
		}
	}
	w, err := s.spill.Write(p)
	s.spilled += int64(w)
	if err != nil {
		s.err = err
		s.dropped += int64(len(p) - w)
	}
	return n, nil
}

// truncated reports whether the stream went past ShellOutputBytes.
func (s *shellStream) truncated() bool { return s.spilled+s.dropped > 0 || s.err != nil }

// text is what the model sees: the head, decoded lossily (a character
// split at the cut becomes U+FFFD).
func (s *shellStream) text() string { return strings.ToValidUTF8(string(s.head), "\uFFFD") }

// writeTo copies the whole captured stream to w.
func (s *shellStream) writeTo(w io.Writer) error {
	if _, err := w.Write(s.head); err != nil {
		return err
	}
	if s.err != nil {
		return fmt.Errorf("keeping the output past %d bytes: %w", ShellOutputBytes, s.err)
	}
	if s.spill != nil {
		if _, err := s.spill.Seek(0, io.SeekStart); err != nil {
			return err
		}
		if _, err := io.Copy(w, s.spill); err != nil {
			return err
		}
	}
	if s.dropped > 0 {
		_, err := fmt.Fprintf(w, "\n[mur: %d more bytes not kept: a stream's full output is capped at capabilities.resources.max_file_size_bytes (%d)]",
			s.dropped, ShellOutputBytes+s.spillMax)
		return err
	}
	return nil
}

func (s *shellStream) close() {
	if s.spill != nil {
		s.spill.Close()
	}
}

// openSpill creates a spill file under logs/ and unlinks it at once
// where the platform allows, so nothing in the workdir names it.
func openSpill(root *os.Root) (*os.File, error) {
	if err := root.MkdirAll(shellLogDir, 0o755); err != nil {
		return nil, err
	}
	var rnd [8]byte
	rand.Read(rnd[:])
	rel := filepath.Join(shellLogDir, ".shell-spill-"+hex.EncodeToString(rnd[:]))
	f, err := confined.OpenFile(root, rel, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	_ = root.Remove(rel) // best effort: on Windows the open file stays until closed
	return f, nil
}

// writeShellLog writes a truncated command's full output to
// logs/shell-<unix ms>.log (security.md §5.3) and returns that relative
// path. The name is new: when a call of the same millisecond has it, the
// next millisecond's is taken. Confined: a planted logs/ link or log
// file is refused, never written through.
func writeShellLog(root *os.Root, now time.Time, command string, exit int32, stdout, stderr *shellStream) (string, error) {
	rel, f, err := newShellLog(root, now)
	if err != nil {
		return "", fmt.Errorf("failed to write shell log %s: %w", filepath.Join(root.Name(), rel), err)
	}
	err = func() error {
		if _, err := fmt.Fprintf(f, "Command: %s\nExit code: %d\n\nStdout:\n", command, exit); err != nil {
			return err
		}
		if err := stdout.writeTo(f); err != nil {
			return err
		}
		if _, err := io.WriteString(f, "\n\nStderr:\n"); err != nil {
			return err
		}
		if err := stderr.writeTo(f); err != nil {
			return err
		}
		_, err := io.WriteString(f, "\n")
		return err
	}()
	if err = errors.Join(err, f.Close()); err != nil {
		return "", fmt.Errorf("failed to write shell log %s: %w", filepath.Join(root.Name(), rel), err)
	}
	return filepath.ToSlash(rel), nil
}

func newShellLog(root *os.Root, now time.Time) (string, *os.File, error) {
	rel := filepath.Join(shellLogDir, "shell.log")
	if err := root.MkdirAll(shellLogDir, 0o755); err != nil {
		return rel, nil, err
	}
	ms := now.UnixMilli()
	for range 1000 {
		rel = filepath.Join(shellLogDir, fmt.Sprintf("shell-%d.log", ms))
		f, err := confined.OpenFile(root, rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, fs.ErrExist) {
			return rel, f, err
		}
		ms++
	}
	return rel, nil, fmt.Errorf("%w: every name up to %s is taken", fs.ErrExist, rel)
}
