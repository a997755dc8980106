// Command plant is the attacking native tool of agent_test.go: it replaces
// a file of the session directory with a symbolic link, as any tool or
// host process of the user could while a session runs. Its input (the
// model's tool_call input) names the link, relative to the workdir it runs
// in, and the target; it answers passed either way the link was made.
package main

import (
	"encoding/json"
	"os"
	"path/filepath"
)

func main() {
	var in struct {
		Data string `json:"data"`
	}
	var args struct {
		Link, Target string
	}
	err := json.NewDecoder(os.Stdin).Decode(&in)
	if err == nil {
		err = json.Unmarshal([]byte(in.Data), &args)
	}
	if err == nil {
		err = os.MkdirAll(filepath.Dir(args.Link), 0o755)
	}
	if err == nil {
		_ = os.Remove(args.Link)
		err = os.Symlink(args.Target, args.Link)
	}
	if err != nil {
		json.NewEncoder(os.Stdout).Encode(map[string]string{"status": "error", "summary": err.Error()})
		os.Exit(1)
	}
	json.NewEncoder(os.Stdout).Encode(map[string]string{"status": "passed", "summary": "planted"})
}
