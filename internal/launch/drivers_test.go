package launch_test

// Full `mur run` sessions through the built-in drivers (openai-compatible,
// anthropic) against the loopback mock provider: installed from the
// binary's built-in registry with no network, a multi-turn tool use, and
// the credential gateway attacked by keyspy, a WASM tool that dumps its
// environment, files and memory and sends the key placeholder to the
// endpoint. The key must reach the provider on the driver's requests
// only, and appear nowhere else: not in any guest, output, file or log.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mur-go/mur/internal/launch"
	"github.com/mur-go/mur/internal/testing/mockprovider"
	"github.com/mur-go/mur/internal/testing/testguest"
)

const providerKey = "sk-mock-0123456789-KEY-abcdef"

// keyspyPkg packs keyspy-go as the tool keyspy.
var keyspyPkg = sync.OnceValues(func() (string, error) {
	src, err := os.MkdirTemp("", "mur-keyspy-pkg-")
	if err != nil {
		return "", err
	}
	dir := filepath.Join(src, "keyspy")
	if err := artifactDir(dir, "keyspy", "", map[string]string{"keyspy.wasm": testguest.Path(testguest.KeyspyGo)}); err != nil {
		return "", err
	}
	if _, stderr, code := runMur(src, nil, "build", dir, "-o", src); code != 0 {
		return "", fmt.Errorf("mur build keyspy: exit %d\n%s", code, stderr)
	}
	return filepath.Join(src, "keyspy-0.1.0.mur.zip"), nil
})

type driverCase struct {
	driver, apiPath, header, prefix string
	turn                            func(text string, calls ...mockprovider.Call) mockprovider.Reply
	resultMarker                    string // how the echo result appears in the next request
}

var driverCases = []driverCase{
	{"openai-compatible", "/v1/chat/completions", "Authorization", "Bearer ",
		func(text string, calls ...mockprovider.Call) mockprovider.Reply {
			return mockprovider.OpenAIStream(strings.SplitAfter(text, " "), calls...)
		}, `"role":"tool","tool_call_id":"c1"`},
	{"anthropic", "/v1/messages", "X-Api-Key", "",
		func(text string, calls ...mockprovider.Call) mockprovider.Reply {
			return mockprovider.Anthropic("", text, calls...)
		}, `"tool_use_id":"c1","type":"tool_result"`},
}

func TestBuiltinDriversRunSessions(t *testing.T) {
	agentPkgsDir, err := agentPkgs()
	if err != nil {
		t.Fatal(err)
	}
	spy, err := keyspyPkg()
	if err != nil {
		t.Fatal(err)
	}
	for _, dc := range driverCases {
		t.Run(dc.driver, func(t *testing.T) {
			srv := mockprovider.New(t,
				dc.turn("Let me look.", mockprovider.Call{ID: "c1", Name: "echo", Args: `{"text":"hello"}`},
					mockprovider.Call{ID: "c2", Name: "keyspy", Args: `{}`}),
				dc.turn("Once more.", mockprovider.Call{ID: "c3", Name: "echo", Args: `{"text":"again"}`}),
				dc.turn("all done"))
			srv.Route("/keyspy", mockprovider.Reply{Body: `{"probe":"ok"}`})
			p := &project{t: t, dir: t.TempDir()}
			yaml := fmt.Sprintf(`name: agent
version: "0.1.0"
inference:
  endpoint: %s
  model: mock-model
  api_key: ${MOCK_PROVIDER_KEY}
  max_turns: 5
  driver:
    artifact: %s
artifacts:
  - name: %s
    version: "0.1.0"
    runtime: driver
  - name: echo
    version: "0.1.0"
    runtime: tool
  - name: keyspy
    version: "0.1.0"
    runtime: tool
capabilities:
  network:
    allow: [%s]
`, srv.URL, dc.driver, dc.driver, srv.URL)
			if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			envKey := []string{"MOCK_PROVIDER_KEY=" + providerKey}
			// The tools go to the global store; `mur install` then pins all
			// three, the driver coming from the built-in registry.
			p.mur(0, "publish", filepath.Join(agentPkgsDir, "echo-0.1.0.mur.zip"), "--registry", "local")
			p.mur(0, "publish", spy, "--registry", "local")
			out, stderr, code := runMur(p.dir, envKey, "install")
			if code != 0 || !strings.Contains(out, "Installed "+dc.driver+"@0.1.0") {
				t.Fatalf("mur install: exit %d\n%s\n%s", code, out, stderr)
			}
			stdout, stderr, code := runMur(p.dir, envKey, "run", "--task", "reverse hello")
			if code != 0 {
				t.Fatalf("mur run: exit %d\nstdout:\n%.4000s\nstderr:\n%s", code, stdout, stderr)
			}
			if b := sessionResult(t, p.dir); strings.TrimSpace(b) != "all done" {
				t.Errorf("result.txt %q", b)
			}

			var model []mockprovider.Recorded
			for _, r := range srv.Requests() {
				switch r.Path {
				case dc.apiPath:
					model = append(model, r)
					if got := r.Header.Get(dc.header); got != dc.prefix+providerKey {
						t.Errorf("the driver's request carried %s %q, want the key", dc.header, got)
					}
				case "/keyspy":
					for name, vs := range r.Header {
						if strings.Contains(strings.Join(vs, " "), providerKey) {
							t.Errorf("the tool's request to the endpoint carried the key in %s", name)
						}
					}
					if !strings.Contains(r.Header.Get("X-Api-Key"), launch.KeyPlaceholder) {
						t.Errorf("keyspy sent x-api-key %q, want the placeholder", r.Header.Get("X-Api-Key"))
					}
				default:
					t.Errorf("unexpected request %s", r.Path)
				}
			}
			if len(model) != 3 {
				t.Fatalf("the provider got %d model requests, want 3", len(model))
			}
			if body := string(model[1].Body); !strings.Contains(body, dc.resultMarker) || !strings.Contains(body, `}\"olleh\":\"txet\"{`) {
				t.Errorf("turn 2 does not carry the echo result:\n%s", body)
			}

			if !strings.Contains(stdout, "env MURMUR_INFERENCE_API_KEY="+launch.KeyPlaceholder) || !strings.Contains(stdout, "probe 200") {
				t.Errorf("keyspy did not run as expected:\n%.2000s", stdout)
			}
			assertNoKey(t, p.dir, stdout+stderr)
		})
	}
}

// TestBuiltinDriversReadGzipProviders: a provider that compresses its
// answers (whole or as events) when asked still drives a session: the
// host asks for gzip on the driver's behalf and decodes before the driver
// reads (engine/wasip2/credential_shape.go).
func TestBuiltinDriversReadGzipProviders(t *testing.T) {
	for _, dc := range driverCases {
		for _, stream := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/stream=%v", dc.driver, stream), func(t *testing.T) {
				reply := dc.turn("compressed answer")
				if !stream {
					reply = mockprovider.OpenAI("compressed answer")
					if dc.driver == "anthropic" {
						reply = mockprovider.Anthropic("", "compressed answer")
					}
				}
				reply.Gzip = true
				srv := mockprovider.New(t, reply)
				p := &project{t: t, dir: t.TempDir()}
				yaml := fmt.Sprintf(`name: agent
version: "0.1.0"
inference:
  endpoint: %s
  model: mock-model
  api_key: ${MOCK_PROVIDER_KEY}
  driver:
    artifact: %s
    config: {stream: %v}
artifacts:
  - name: %s
    version: "0.1.0"
    runtime: driver
capabilities:
  network:
    allow: [%s]
`, srv.URL, dc.driver, stream, dc.driver, srv.URL)
				if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
					t.Fatal(err)
				}
				envKey := []string{"MOCK_PROVIDER_KEY=" + providerKey}
				if out, stderr, code := runMur(p.dir, envKey, "install"); code != 0 {
					t.Fatalf("mur install: exit %d\n%s\n%s", code, out, stderr)
				}
				stdout, stderr, code := runMur(p.dir, envKey, "run", "--task", "hi")
				if code != 0 {
					t.Fatalf("mur run: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
				}
				if b := sessionResult(t, p.dir); strings.TrimSpace(b) != "compressed answer" {
					t.Errorf("result.txt %q", b)
				}
				reqs := srv.Requests()
				if len(reqs) != 1 || reqs[0].Header.Get("Accept-Encoding") != "gzip" {
					t.Fatalf("the provider got %d requests, the first accepting %q: want one, gzip", len(reqs), reqs[0].Header.Get("Accept-Encoding"))
				}
			})
		}
	}
}

// TestCredentialRejected: a 401 from the provider ends the run with its
// own code after one request, and the key it was sent is not echoed.
func TestCredentialRejected(t *testing.T) {
	for _, dc := range driverCases {
		t.Run(dc.driver, func(t *testing.T) {
			srv := mockprovider.New(t, mockprovider.Error(401, "invalid x-api-key", nil))
			p := &project{t: t, dir: t.TempDir()}
			yaml := fmt.Sprintf(`name: agent
version: "0.1.0"
inference:
  endpoint: %s
  model: mock-model
  api_key: ${MOCK_PROVIDER_KEY}
  driver:
    artifact: %s
artifacts:
  - name: %s
    version: "0.1.0"
    runtime: driver
capabilities:
  network:
    allow: [%s]
`, srv.URL, dc.driver, dc.driver, srv.URL)
			if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			envKey := []string{"MOCK_PROVIDER_KEY=" + providerKey}
			if out, stderr, code := runMur(p.dir, envKey, "install"); code != 0 {
				t.Fatalf("mur install: exit %d\n%s\n%s", code, out, stderr)
			}
			stdout, stderr, code := runMur(p.dir, envKey, "run", "--task", "hi")
			if code == 0 || !strings.Contains(stderr, "E-RUN-027") || !strings.Contains(stderr, "HTTP 401") {
				t.Fatalf("exit %d, want a failure with E-RUN-027 and the provider's answer\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if n := len(srv.Requests()); n != 1 {
				t.Errorf("the provider got %d requests, want 1 (no retry)", n)
			}
			if strings.Contains(stdout+stderr, providerKey) {
				t.Error("the key is in mur's output")
			}
		})
	}
}

// TestBuiltinDriversListed: on an empty home, `mur list -g --json` shows
// the built-in drivers with the versions a capsule declares.
func TestBuiltinDriversListed(t *testing.T) {
	stdout, stderr, code := runMur(t.TempDir(), nil, "list", "-g", "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var rows []struct{ Name, Version, Runtime, Scope string }
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	got := map[string]string{}
	for _, r := range rows {
		if r.Runtime == "driver" && r.Scope == "builtin" {
			got[r.Name] = r.Version
		}
	}
	for _, name := range []string{"openai-compatible", "anthropic", "scripted"} {
		if got[name] != "0.1.0" {
			t.Errorf("%s: listed %v, want version 0.1.0 in %s", name, got, stdout)
		}
	}
}
