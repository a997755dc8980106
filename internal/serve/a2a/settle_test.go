package a2a

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// A finished task reads back from the reply ring exactly as the blocking
// send returned it while it was live, parts of every kind included, and
// from its table row (state and context) once its reply was forgotten.
func TestSettledTaskReadsBack(t *testing.T) {
	const keep = 3
	s := serve(t, func(o *ServerOptions) { o.KeepTasks = keep })
	c := v1(t, s)
	sendIn := func(ctxID, text string, extra ...*a2a.Part) *a2a.Task {
		t.Helper()
		msg := a2a.NewMessage(a2a.MessageRoleUser, append([]*a2a.Part{a2a.NewTextPart(text)}, extra...)...)
		msg.ContextID = ctxID
		msg.Metadata = map[string]any{"n": 1.5, "tags": []any{"a", "b"}}
		res, err := c.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: msg})
		if err != nil {
			t.Fatalf("send %q: %v", text, err)
		}
		<-s.loop.finished
		return taskOf(t, res)
	}
	first := sendIn("client-thread", "chunks:a,b", a2a.NewRawPart([]byte{0, 1, 0xff}),
		a2a.NewFileURLPart("https://example.com/f", "text/plain"), a2a.NewDataPart(map[string]any{"k": "v"}))
	readBack := func(live *a2a.Task) {
		t.Helper()
		got, err := c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: live.ID})
		if err != nil {
			t.Fatal(err)
		}
		if a, b := jsonOf(t, live), jsonOf(t, got); a != b {
			t.Errorf("GetTask of a settled task differs from the live answer:\n live %s\n read %s", a, b)
		}
	}
	readBack(first)
	second := sendIn("client-thread", "two")
	failed := sendIn("", "fail")
	canonical := sendIn(failed.ContextID, "same context as the failed task")

	readBack(canonical)
	one := 1
	got, err := c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: canonical.ID, HistoryLength: &one})
	if err != nil || len(got.History) != 1 || got.History[0].Role != a2a.MessageRoleAgent {
		t.Errorf("GetTask with historyLength 1: %v, %+v", err, got)
	}

	// first is beyond keep now: state and context only.
	got, err = c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: first.ID})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status.State != a2a.TaskStateCompleted || got.ContextID != "client-thread" || got.Status.Timestamp == nil ||
		!got.Status.Timestamp.Equal(*first.Status.Timestamp) || len(got.Artifacts) != 0 {
		t.Errorf("a forgotten reply's task reads %s in %q at %v with %d artifacts", got.Status.State, got.ContextID, got.Status.Timestamp, len(got.Artifacts))
	}

	tests := []struct {
		name string
		req  a2a.ListTasksRequest
		want []*a2a.Task
		next string
	}{
		{"all", a2a.ListTasksRequest{}, []*a2a.Task{canonical, failed, second, first}, ""},
		{"client context", a2a.ListTasksRequest{ContextID: "client-thread"}, []*a2a.Task{second, first}, ""},
		{"minted context", a2a.ListTasksRequest{ContextID: failed.ContextID}, []*a2a.Task{canonical, failed}, ""},
		{"unknown context", a2a.ListTasksRequest{ContextID: "client-thread-2"}, nil, ""},
		{"failed", a2a.ListTasksRequest{Status: a2a.TaskStateFailed}, []*a2a.Task{failed}, ""},
		{"after", a2a.ListTasksRequest{StatusTimestampAfter: second.Status.Timestamp}, []*a2a.Task{canonical, failed}, ""},
		{"page 1", a2a.ListTasksRequest{PageSize: 3}, []*a2a.Task{canonical, failed, second}, "3"},
		{"page 2", a2a.ListTasksRequest{PageSize: 3, PageToken: "3"}, []*a2a.Task{first}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.IncludeArtifacts = true
			list, err := c.ListTasks(t.Context(), &tt.req)
			if err != nil {
				t.Fatal(err)
			}
			var ids, want []a2a.TaskID
			for _, task := range list.Tasks {
				ids = append(ids, task.ID)
			}
			for _, task := range tt.want {
				want = append(want, task.ID)
			}
			if fmt.Sprint(ids) != fmt.Sprint(want) || list.NextPageToken != tt.next {
				t.Errorf("lists %v (next %q), want %v (next %q)", ids, list.NextPageToken, want, tt.next)
			}
			if len(list.Tasks) > 0 && list.Tasks[0].ID == canonical.ID && jsonOf(t, list.Tasks[0]) != jsonOf(t, canonical) {
				t.Errorf("ListTasks reads a settled task differently from the live answer")
			}
		})
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
