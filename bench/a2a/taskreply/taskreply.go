// Package taskreply reads a benchmark task's answer back.
package taskreply

import (
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// Text is a task's status message and artifacts as one text: the loop
// may carry its answer in either.
func Text(task *a2a.Task) string {
	var b strings.Builder
	parts := func(ps []*a2a.Part) {
		for _, p := range ps {
			b.WriteString(p.Text())
		}
	}
	if task.Status.Message != nil {
		parts(task.Status.Message.Parts)
	}
	for _, a := range task.Artifacts {
		parts(a.Parts)
	}
	return b.String()
}
