package queue

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

func TestCheckName(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"agent", true}, {"my-agent_2", true}, {"", false}, {"a.b", false}, {"a*", false}, {"a>", false}, {"a b", false},
		{strings.Repeat("a", 129), false},
	} {
		if err := CheckName(c.name); (err == nil) != c.ok {
			t.Errorf("CheckName(%q) = %v, want ok %v", c.name, err, c.ok)
		}
	}
}

// A --nats value's credentials are what the worker redacts, and an
// error about it never repeats it.
func TestURLCredentials(t *testing.T) {
	urls := "nats://alice:s3cr3tpass@h1:4222,nats://tok3n-value@h2:4222,nats://h3:4222"
	got := Secrets(urls)
	want := []string{"alice", "s3cr3tpass", "tok3n-value"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("Secrets = %v, want %v", got, want)
	}
	err := CheckURLs("nats://alice:s3cr3tpass@h1:4222,http://x:hunter22@h2")
	if err == nil || strings.Contains(err.Error(), "hunter22") || strings.Contains(err.Error(), "s3cr3tpass") {
		t.Errorf("CheckURLs = %v: want a refusal that does not repeat the URLs", err)
	}
}

func TestMessageKeyIsAKey(t *testing.T) {
	for _, id := range []string{"m1", "a.b.*>", strings.Repeat("x", 10000), "\x00"} {
		k := MessageKey("agent", id)
		if strings.ContainsAny(k[len("m.agent."):], ".*> ") || len(k) > 64 {
			t.Errorf("MessageKey(%q) = %q", id, k)
		}
	}
	if MessageKey("a", "x") == MessageKey("b", "x") {
		t.Error("two capsules' message ids share a key")
	}
}

func TestEventRoundTrip(t *testing.T) {
	ev := &a2a.TaskStatusUpdateEvent{TaskID: "tsk_1", ContextID: "ctx_1", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted}}
	b, err := EncodeEvent(ev)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeEvent(b)
	if err != nil || !FinalEvent(got) || got.TaskInfo().TaskID != "tsk_1" {
		t.Errorf("DecodeEvent(%s) = %#v, %v", b, got, err)
	}
}

// FuzzDecode: events, records and answers come off the cluster, where anyone who
// may publish can write them; reading them never panics.
func FuzzDecode(f *testing.F) {
	b, _ := EncodeEvent(&a2a.TaskArtifactUpdateEvent{TaskID: "t", Artifact: &a2a.Artifact{ID: "response"}})
	f.Add(b)
	r, _ := json.Marshal(Record{Task: &a2a.Task{ID: "t"}})
	f.Add(r)
	f.Add([]byte(`{"statusUpdate":{"status":{"state":9}}}`))
	f.Add([]byte(`{"task_id":"t","attempt":1,"text":"Ada","message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"Ada"}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if ev, err := DecodeEvent(data); err == nil && ev != nil {
			_ = FinalEvent(ev)
		}
		var rec Record
		if json.Unmarshal(data, &rec) == nil {
			_ = rec.Final()
		}
		if a, err := DecodeAnswer(data); err == nil && (a.TaskID == "" || a.Message == nil) {
			t.Errorf("DecodeAnswer took %q", data)
		}
	})
}
