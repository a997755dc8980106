package a2a

import (
	"errors"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

func TestListStatusFilter(t *testing.T) {
	tests := []struct {
		in      a2a.TaskState
		want    a2a.TaskState
		invalid bool
	}{
		{"", "", false},
		{"UNRECOGNIZED", "", false}, // what the JS SDK sends for "no filter"
		{a2a.TaskStateCompleted, a2a.TaskStateCompleted, false},
		{"TASK_STATE_EXPLODED", "", true},
	}
	for _, tt := range tests {
		got, err := statusFilter(tt.in)
		if got != tt.want || errors.Is(err, a2a.ErrInvalidParams) != tt.invalid {
			t.Errorf("statusFilter(%q) = %q, %v", tt.in, got, err)
		}
	}
}
