package tools

import (
	"encoding/json"
	"fmt"
	"strings"
)

// shellInputError is a tool input the shell runner refuses before
// spawning anything; its text is what the model is told (security.md §5.1).
type shellInputError struct{ msg string }

func (e *shellInputError) Error() string { return e.msg }

// shellCommand reads the command out of a shell tool's input JSON: a
// non-empty (once trimmed) string "command". It returns it trimmed.
func shellCommand(input string) (string, error) {
	if strings.TrimSpace(input) == "" || strings.TrimSpace(input) == "null" {
		return "", &shellInputError{"shell tool input.data is required"}
	}
	var in map[string]json.RawMessage
	if err := json.Unmarshal([]byte(input), &in); err != nil {
		return "", &shellInputError{fmt.Sprintf("shell tool input must be valid JSON: %v", err)}
	}
	var cmd string
	if raw, ok := in["command"]; !ok || json.Unmarshal(raw, &cmd) != nil || strings.TrimSpace(cmd) == "" {
		return "", &shellInputError{"shell tool input must include a non-empty 'command' string"}
	}
	return strings.TrimSpace(cmd), nil
}

// shellArgv is what follows the binary: "-c <command>" for an
// interpreter, the command split into words for anything else (whose own
// name the model must not repeat).
func shellArgv(command string, interpreter bool) []string {
	if interpreter {
		return []string{"-c", command}
	}
	return SplitWords(command)
}
