package agentexample

// The gateway's front door is mur run's (issue 28): with MURMUR_A2A_TOKEN
// set it serves no task to a request without that bearer token, and it
// refuses to listen beyond loopback without a token unless the operator
// says --insecure-no-token.

import (
	"net/http"
	"os/exec"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
)

const testToken = "cluster-test-token-3f9a1c"

func TestClusterGatewayNeedsItsToken(t *testing.T) {
	e := setUp(t)
	nc := startNATS(t, 3)
	nc.ensure(t)

	t.Run("a request without the token is refused, one with it answered", func(t *testing.T) {
		g := e.start(t, withToken, "gateway", "--nats", nc.urls, "--bind", "127.0.0.1:0")
		base := g.await(t, "a2a: url ") + "/agent"
		e.worker(t, nc.urls, nil)
		body := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}}}`
		for _, auth := range []string{"", "Bearer wrong-token", "Bearer " + testToken + "x", testToken} {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, base, strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			if auth != "" {
				req.Header.Set("Authorization", auth)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusUnauthorized {
				t.Errorf("Authorization %q: status %d, want 401", auth, res.StatusCode)
			}
		}
		res, err := tokenClient(t, base).SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(taskText(t)))})
		task, ok := res.(*a2a.Task)
		if err != nil || !ok || task.Status.State != a2a.TaskStateCompleted || !strings.HasPrefix(answerOf(task), finalAnswer(t)) {
			t.Fatalf("with the token: %v %s\ngateway stderr:\n%.3000s", err, describe(res), g.stderr.String())
		}
	})

	cases := []struct {
		name  string
		prep  func(*exec.Cmd)
		extra []string
		serve bool
	}{
		{"beyond loopback without a token", nil, nil, false},
		{"beyond loopback with a token", withToken, nil, true},
		{"beyond loopback with --insecure-no-token", nil, []string{"--insecure-no-token"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := e.start(t, c.prep, append([]string{"gateway", "--nats", nc.urls, "--bind", "0.0.0.0:0"}, c.extra...)...)
			if c.serve {
				g.await(t, "a2a: url ")
				return
			}
			if code := g.exit(t); code != 2 || !strings.Contains(g.stderr.String(), "without a token") {
				t.Errorf("exit %d, want 2 and the refusal\nstderr:\n%s", code, g.stderr.String())
			}
		})
	}
}

func withToken(c *exec.Cmd) { c.Env = append(c.Env, "MURMUR_A2A_TOKEN="+testToken) }

// tokenClient is client's A2A client of base, sending the test's token.
func tokenClient(t *testing.T, base string) *a2aclient.Client {
	t.Helper()
	card, err := (&agentcard.Resolver{Client: http.DefaultClient}).Resolve(t.Context(), base)
	if err != nil {
		t.Fatalf("resolving the card at %s: %v", base, err)
	}
	hc := &http.Client{Transport: bearer{"Bearer " + testToken}}
	c, err := a2aclient.NewFromCard(t.Context(), card, a2aclient.WithJSONRPCTransport(hc))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Destroy() })
	return c
}
