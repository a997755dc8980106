// Command record is the native tool of mur run's integration tests. It
// reads a tool-input as JSON on stdin and, in its working directory (the
// capsule's workdir):
//
//   - for the data "peer?", answers with the contents of peer.txt;
//   - otherwise appends the data as a line to record.txt.
//
// Installed under the name "secret" it instead leaves secret-ran behind, so
// a test can tell that it never ran.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	var in struct {
		Data *string `json:"data"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fail(err)
	}
	if filepath.Base(os.Args[0]) == "secret" {
		if err := os.WriteFile("secret-ran", nil, 0o644); err != nil {
			fail(err)
		}
		answer("")
		return
	}
	data := ""
	if in.Data != nil {
		data = *in.Data
	}
	if data == "peer?" {
		b, err := os.ReadFile("peer.txt")
		if err != nil {
			fail(err)
		}
		answer(string(b))
		return
	}
	f, err := os.OpenFile("record.txt", os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err == nil {
		_, err = fmt.Fprintln(f, data)
		err = errorsJoin(err, f.Close())
	}
	if err != nil {
		fail(err)
	}
	answer("")
}

func answer(data string) {
	json.NewEncoder(os.Stdout).Encode(map[string]string{"status": "passed", "summary": "recorded", "data": data})
}

func fail(err error) {
	json.NewEncoder(os.Stdout).Encode(map[string]string{"status": "error", "summary": err.Error()})
	os.Exit(1)
}

func errorsJoin(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
