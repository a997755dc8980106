package launch_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"

	"github.com/mur-go/mur/internal/testing/mockprovider"
)

// Murmur's text frames on message/stream, through the mur binary and a
// first-party driver streaming from a provider: a streamed answer comes
// as its chunks (the response artifact, not yet last) and then the
// turn's close (last, empty) before completed; a whole answer as one
// update with the text, last. As Murmur's two streaming cases have it,
// in the A2A form mur-go serves (a2a-cli.md §2.9, §2.13).
func TestServedStreamCarriesTheTextFrames(t *testing.T) {
	streamed, whole := mockprovider.OpenAIStream([]string{"Hel", "lo, ", "world"}), mockprovider.OpenAI("the full response text")
	srv := mockprovider.New(t, streamed, whole, streamed, whole) // each case, in each version
	p := &project{t: t, dir: t.TempDir()}
	yaml := fmt.Sprintf(`name: streamer
version: "0.1.0"
inference:
  endpoint: %s
  model: mock-model
  driver:
    artifact: openai-compatible
artifacts:
  - name: openai-compatible
    version: "0.1.0"
    runtime: driver
capabilities:
  network:
    allow: [%s]
lifecycle:
  task_acceptance: queue
  after_task: sleep
`, srv.URL, srv.URL)
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	p.mur(0, "install") // the first-party driver, built into mur
	c := serveCapsuleWith(t, p, yaml, nil, nil)
	for _, v := range []a2a.ProtocolVersion{a2a.Version, a2av0.Version} {
		for _, tc := range []struct {
			name     string
			streamed bool
			text     string
		}{{"streamed", true, "Hello, world"}, {"whole", false, "the full response text"}} {
			t.Run(string(v)+"/"+tc.name, func(t *testing.T) {
				var chunks, frames []string
				var closed, completed int
				for ev, err := range sdkClient(t, c.base, v).SendStreamingMessage(t.Context(), &a2a.SendMessageRequest{
					Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("say it"))}) {
					if err != nil {
						t.Fatalf("%v\n%s", err, c.stderr.String())
					}
					switch e := ev.(type) {
					case *a2a.TaskArtifactUpdateEvent:
						if e.Artifact.ID != "response" {
							continue
						}
						text := e.Artifact.Parts[0].Text()
						frames = append(frames, fmt.Sprintf("%q append=%v last=%v", text, e.Append, e.LastChunk))
						switch {
						case completed > 0 || closed > 0:
							t.Errorf("a response frame after the turn's close or the completion")
						case !e.LastChunk:
							chunks = append(chunks, text)
						case tc.streamed && (text != "" || !e.Append):
							t.Errorf("the streamed turn's close is %q append=%v, want an empty appended chunk", text, e.Append)
							closed++
						case !tc.streamed && text != tc.text:
							t.Errorf("the whole answer's frame is %q, want %q", text, tc.text)
							closed++
						default:
							closed++
						}
					case *a2a.TaskStatusUpdateEvent:
						if e.Status.State == a2a.TaskStateCompleted {
							completed++
						}
					}
				}
				if got := strings.Join(chunks, ""); closed != 1 || completed != 1 || (tc.streamed && got != tc.text) || (!tc.streamed && len(chunks) != 0) {
					t.Errorf("response frames:\n%s\nwant %s: chunks making %q, one close, then completed", strings.Join(frames, "\n"), tc.name, tc.text)
				}
			})
		}
	}
}
