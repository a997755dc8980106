// Command fingerprint is the agent example's native tool: a host program
// the runtime starts once per call, in the session workdir, speaking
// Murmur's native-tool protocol.
//
// stdin:  one JSON object {"data": string|null, "log_path": string|null},
// data being the model's input, {"path": "<file in the workdir>"}
// stdout: one JSON object {"status": "passed"|"failed"|"error",
//
//	"summary": string, "data": string}
//
// A passed answer's data is the JSON text {"path","bytes","sha256"}. The
// file is opened through an os.Root on the working directory, so a path
// that leaves it (.., an absolute path, a symbolic link out) is refused
// rather than read: the model chooses the path, and nothing a model says
// should reach past the workdir. Such refusals and unreadable files are
// status "failed"; input that is not the protocol's object is "error"
// with exit status 1.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// maxBytes bounds how much of a file is hashed, so a huge file cannot
// keep the tool busy past its deadline for nothing.
const maxBytes = 64 << 20

type output struct {
	Status  string `json:"status"`
	Summary string `json:"summary"`
	Data    string `json:"data,omitempty"`
}

// digest is the passed answer's data; encoding/json keeps the field order.
type digest struct {
	Path   string `json:"path"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

func main() {
	out, code := fingerprint(os.Stdin, ".")
	b, _ := json.Marshal(out)
	os.Stdout.Write(append(b, '\n'))
	os.Exit(code)
}

// fingerprint answers one call against the files under dir: the output
// object and the exit status.
func fingerprint(stdin io.Reader, dir string) (output, int) {
	var req struct {
		Data *string `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(stdin, 1<<20)).Decode(&req); err != nil {
		return output{Status: "error", Summary: `stdin must be a JSON object {"data":…,"log_path":…}: ` + err.Error()}, 1
	}
	var in struct {
		Path string `json:"path"`
	}
	if req.Data == nil || json.Unmarshal([]byte(*req.Data), &in) != nil || in.Path == "" {
		return output{Status: "failed", Summary: `input must be {"path": "<file in the workdir>"}`}, 0
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return output{Status: "failed", Summary: fmt.Sprintf("opening the workdir: %v", err)}, 0
	}
	defer root.Close()
	f, err := root.Open(in.Path)
	if err != nil {
		return output{Status: "failed", Summary: fmt.Sprintf("%s: %v", in.Path, err)}, 0
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, maxBytes+1))
	switch {
	case err != nil:
		return output{Status: "failed", Summary: fmt.Sprintf("reading %s: %v", in.Path, err)}, 0
	case n > maxBytes:
		return output{Status: "failed", Summary: fmt.Sprintf("%s is larger than %d MiB", in.Path, maxBytes>>20)}, 0
	}
	sum := hex.EncodeToString(h.Sum(nil))
	data, _ := json.Marshal(digest{Path: in.Path, Bytes: n, SHA256: sum})
	return output{Status: "passed", Summary: fmt.Sprintf("%s: sha256 %s (%d bytes)", in.Path, sum, n), Data: string(data)}, 0
}
