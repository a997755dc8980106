package a2a

import (
	"fmt"
	"slices"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// Murmur's text frames on message/stream (a2a-cli.md §2.9), as A2A
// artifact updates of the response artifact: a streamed turn is one
// appended update per chunk and then its close (lastChunk, empty text) before the
// completed status; a turn that streamed nothing is one update with the
// whole text and lastChunk. Nothing repeats the answer after that.
func TestStreamCarriesMurmursTextFrames(t *testing.T) {
	s := serve(t)
	for _, p := range protocols {
		for _, tc := range []struct {
			task string
			want []string // response updates as text/append/last, then the final state
		}{
			{"chunks:al,pha,bet", []string{"al/append/", "pha/append/", "bet/append/", "/append/last", "completed"}},
			{"hello", []string{"echo: hello//last", "completed"}},
		} {
			t.Run(p.name+"/"+tc.task, func(t *testing.T) {
				c := client(t, s, p.binding, p.version)
				var got []string
				for ev, err := range c.SendStreamingMessage(t.Context(), userMessage(tc.task)) {
					if err != nil {
						t.Fatal(err)
					}
					switch e := ev.(type) {
					case *a2a.TaskArtifactUpdateEvent:
						if e.Artifact.ID != responseArtifact {
							continue
						}
						flag := func(b bool, s string) string {
							if b {
								return s
							}
							return ""
						}
						got = append(got, fmt.Sprintf("%s/%s/%s", e.Artifact.Parts[0].Text(), flag(e.Append, "append"), flag(e.LastChunk, "last")))
					case *a2a.TaskStatusUpdateEvent:
						if e.Status.State == a2a.TaskStateCompleted {
							got = append(got, "completed")
						} else if e.Status.State.Terminal() {
							got = append(got, string(e.Status.State))
						}
					}
				}
				if !slices.Equal(got, tc.want) {
					t.Errorf("response frames %q, want %q", got, tc.want)
				}
			})
		}
	}
}
