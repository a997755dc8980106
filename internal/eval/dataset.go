package eval

import (
	"fmt"
	"slices"

	"github.com/mur-go/mur/internal/base/diag"
)

// Case is one line of a dataset.
type Case struct {
	// ID is case_id: the case's name in the output and the dataset_run.
	ID string
	// TaskPath is task_path: the file whose text is the case's task,
	// relative to the current directory (as Murmur reads it).
	TaskPath string
	// Line is the case's line in the dataset.
	Line int
}

// caseKeys are the fields a dataset line may have.
var caseKeys = []string{"case_id", "task_path", "expected"}

// ParseDataset decodes a dataset read from name: one case per line,
// blank lines skipped. Murmur ignores fields it does not know, and
// `expected`, which no scorer reads; mur-go refuses both, so a typo or
// an expected answer nothing compares is not taken for a test.
func ParseDataset(name string, data []byte) ([]Case, error) {
	var cases []Case
	err := eachLine(name, data, func(line int, text string) error {
		o, err := readObject(text)
		if err != nil {
			return err
		}
		for _, k := range o.keys {
			if !slices.Contains(caseKeys, k) {
				return fmt.Errorf("unknown field %q, expected %q, %q or %q", k, caseKeys[0], caseKeys[1], caseKeys[2])
			}
		}
		if raw, ok := o.vals["expected"]; ok && !isNull(raw) {
			return diag.New(CodeNotImplemented, "not implemented: a case's expected answer (no scorer compares the agent's answer with it; Murmur reserves it for llm_judge, which mur-go does not have either)").
				WithHint("remove \"expected\" and score the case with exit_ok, max_turns, max_tokens or tool_sequence")
		}
		c := Case{Line: line}
		if c.ID, err = o.str("case_id"); err != nil {
			return err
		}
		if c.TaskPath, err = o.str("task_path"); err != nil {
			return err
		}
		cases = append(cases, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return cases, nil
}
