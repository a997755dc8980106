package launch_test

import (
	"context"
	"encoding/pem"
	"iter"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

type tlsEcho struct{}

func (tlsEcho) Execute(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		text := ""
		for _, p := range ec.Message.Parts {
			text += p.Text()
		}
		if !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewTextPart("tls echo: "+text))), nil)
	}
}

func (tlsEcho) Cancel(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

// `mur send` to an https agent (the SDK's own 1.0 server) verifies it
// against the system's roots: trusted once the test CA is among them
// (SSL_CERT_FILE, the system's own mechanism), refused with an error that
// names the certificate problem when it is not.
func TestSendVerifiesHTTPSAgents(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewUnstartedServer(mux)
	card := &a2a.AgentCard{Name: "tls-echo", Version: "1", Description: "echo over TLS",
		SupportedInterfaces: []*a2a.AgentInterface{{URL: "https://" + srv.Listener.Addr().String(), ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.Version}},
		DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Capabilities: a2a.AgentCapabilities{Streaming: true}, Skills: []a2a.AgentSkill{{ID: "echo", Name: "echo", Description: "echo", Tags: []string{"echo"}}}}
	mux.Handle("/.well-known/agent-card.json", a2asrv.NewStaticAgentCardHandler(card))
	mux.Handle("/", a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(tlsEcho{})))
	srv.StartTLS()
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	ca := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		env    []string
		code   int
		output string
	}{
		{"trusted", []string{"SSL_CERT_FILE=" + ca, "SSL_CERT_DIR=" + dir}, 0, "tls echo: over tls"},
		{"untrusted", []string{"SSL_CERT_FILE=" + filepath.Join(dir, "none.pem"), "SSL_CERT_DIR=" + filepath.Join(dir, "none")}, 1,
			"its TLS certificate is signed by an authority this system does not trust"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, code := runMur(dir, tt.env, "send", srv.URL, "over tls")
			if code != tt.code || !strings.Contains(out+errs, tt.output) {
				t.Fatalf("exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s", code, tt.code, tt.output, out, errs)
			}
		})
	}
}
