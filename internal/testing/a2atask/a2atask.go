// Package a2atask reads an A2A task's answer back, for tests and
// benchmarks.
package a2atask

import (
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// Text is a task's status message and artifacts as one text: the agent
// loop may carry its answer in either.
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
