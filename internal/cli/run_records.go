package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mur-go/mur/internal/stage"
)

// printRecords names, for an agent capsule's run, the session files that
// say what the agent did, so a user need not know the workdir layout:
// out/result.txt (the answer or the error) and trace.jsonl (every turn and
// tool call), each only if the run wrote it.
func printRecords(w io.Writer, s *stage.Staged) {
	if s == nil || s.Capsule == nil || s.Capsule.Inference == nil {
		return
	}
	for _, f := range []struct{ label, rel string }{
		{"result:  ", filepath.Join("out", "result.txt")},
		{"trace:   ", "trace.jsonl"},
	} {
		path := filepath.Join(s.SessionDir, f.rel)
		if _, err := os.Lstat(path); err == nil {
			fmt.Fprintf(w, "%s%s\n", f.label, path)
		}
	}
}
