package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// buildNativeTool compiles testdata/nativetool into a temp dir.
func buildNativeTool(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a Go program")
	}
	bin := filepath.Join(t.TempDir(), "nativetool")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	cmd := exec.Command("go", "build", "-o", bin, "./testdata/nativetool")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func TestNativeTool(t *testing.T) {
	bin := buildNativeTool(t)
	workdir := t.TempDir()
	t.Setenv("OPENAI_API_KEY", "sk-host")
	t.Setenv("AWS_REGION", "eu-west-1")
	t.Setenv("MY_SERVICE_API_KEY", "k")
	t.Setenv("STRIPME_TOO", "x")
	t.Setenv("MURMUR_TEST_KEEP", "kept")
	t.Setenv("MURMUR_TEST_HOST_ONLY", "leak")
	env, err := SubprocessEnv{
		BaselineEnv: []string{"MURMUR_TEST_KEEP", "AWS_REGION", "MY_SERVICE_API_KEY", "STRIPME_TOO", "UNSET_NAME"},
		StripEnv:    []string{"STRIP*"},
		Workdir:     workdir,
	}.Build()
	if err != nil {
		t.Fatal(err)
	}
	tool := &NativeTool{Name: "nt", Path: bin, SHA256: fileSHA256(t, bin), Dir: workdir, Env: env, Deadline: time.Minute}
	ctx := context.Background()

	t.Run("env, home and protocol", func(t *testing.T) {
		r, err := tool.Invoke(ctx, ToolInput{Data: Str("env"), LogPath: Str("logs/x.log")})
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != StatusPassed || *r.Summary != "environment" || r.Data == nil {
			t.Fatalf("result %+v", r)
		}
		var got struct {
			Env   []string `json:"env"`
			Cwd   string   `json:"cwd"`
			Stdin string   `json:"stdin"`
		}
		if err := json.Unmarshal([]byte(*r.Data), &got); err != nil {
			t.Fatalf("data %q: %v", *r.Data, err)
		}
		home := filepath.Join(workdir, ".capsule-home")
		vars := map[string]string{}
		for _, kv := range got.Env {
			k, v, _ := strings.Cut(kv, "=")
			vars[k] = v
		}
		if vars["HOME"] != home || vars["USERPROFILE"] != home || vars["MURMUR_TEST_KEEP"] != "kept" || vars["PATH"] != os.Getenv("PATH") {
			t.Fatalf("env = %v", got.Env)
		}
		for _, k := range []string{"OPENAI_API_KEY", "AWS_REGION", "MY_SERVICE_API_KEY", "STRIPME_TOO", "MURMUR_TEST_HOST_ONLY", "UNSET_NAME"} {
			if _, ok := vars[k]; ok {
				t.Errorf("%s reached the tool", k)
			}
		}
		if st, err := os.Stat(home); err != nil || !st.IsDir() {
			t.Fatalf("synthetic home: %v", err)
		}
		if wd, _ := filepath.EvalSymlinks(got.Cwd); wd != mustEval(t, workdir) {
			t.Fatalf("cwd = %s, want %s", got.Cwd, workdir)
		}
		if got.Stdin != `{"data":"env","log_path":"logs/x.log"}` {
			t.Fatalf("stdin = %s", got.Stdin)
		}
	})
	t.Run("answers", func(t *testing.T) {
		for data, want := range map[string]ToolResult{
			"raw":    {Status: StatusPassed, Summary: Str("native tool 'nt' completed"), Data: Str("plain text")},
			"fail":   {Status: StatusError, Summary: Str("native tool 'nt' exited with exit status 3"), Data: Str("went wrong")},
			"failed": {Status: StatusFailed, Summary: Str("nope"), Data: Str("why")},
		} {
			r, err := tool.Invoke(ctx, ToolInput{Data: Str(data)})
			if err != nil || !sameResult(r, want) {
				t.Errorf("%s: %+v (%v), want %+v", data, r, err, want)
			}
		}
	})
	t.Run("deadline kills the process group", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("no process groups")
		}
		// The tool and its child share a connection to peer: it closes once
		// both are dead, which is what the deadline must achieve.
		peer, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer peer.Close()
		if err := os.WriteFile(filepath.Join(workdir, "peer.addr"), []byte(peer.Addr().String()), 0o644); err != nil {
			t.Fatal(err)
		}
		accepted := make(chan net.Conn, 1)
		go func() {
			if c, err := peer.Accept(); err == nil {
				accepted <- c
			}
		}()
		short := *tool
		short.Deadline = time.Second
		start := time.Now()
		_, err = short.Invoke(ctx, ToolInput{Data: Str("spawn")})
		const want = "tool 'nt' exceeded its 1s execution deadline (capabilities.limits.deadline_seconds) and was interrupted"
		var te *ToolError
		if err == nil || err.Error() != want || !errors.As(err, &te) || te.Kind != ToolDeadline {
			t.Fatalf("error = %v, want %q", err, want)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Fatalf("took %s", d)
		}
		var conn net.Conn
		select {
		case conn = <-accepted:
		case <-time.After(10 * time.Second):
			t.Fatal("the tool never connected to the test")
		}
		defer conn.Close()
		if err := conn.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Read(make([]byte, 1)); errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatal("the tool's child survived the deadline: its connection is still open")
		}
	})
	t.Run("spawn failure", func(t *testing.T) {
		missing := *tool
		missing.Path = filepath.Join(workdir, "nope")
		_, err := missing.Invoke(ctx, ToolInput{})
		if err == nil || !strings.HasPrefix(err.Error(), "failed to spawn native tool 'nt': ") {
			t.Fatalf("error = %v", err)
		}
	})
}

func fileSHA256(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func sameResult(a, b ToolResult) bool {
	s := func(p *string) string {
		if p == nil {
			return "<nil>"
		}
		return *p
	}
	return a.Status == b.Status && s(a.Summary) == s(b.Summary) && s(a.Data) == s(b.Data) && a.Truncated == b.Truncated
}

func mustEval(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestParseNativeOutputNonStringData(t *testing.T) {
	r := parseNativeOutput("t", "exit status 0", true, `{"status":"weird","data":{"b": 1, "a": [2]}}`, "")
	if r.Status != StatusError || r.Data == nil || *r.Data != `{"b":1,"a":[2]}` || r.Summary != nil {
		t.Fatalf("%+v", r)
	}
	r = parseNativeOutput("t", "exit status 0", true, `{"status":"passed","data":null}`, "")
	if r.Status != StatusPassed || r.Data != nil {
		t.Fatalf("%+v", r)
	}
}

func TestNativeOutputCap(t *testing.T) {
	b := &capBuffer{max: 4}
	b.Write([]byte("ab"))
	b.Write([]byte("cdef"))
	if b.String() != "abcd" || !b.truncated {
		t.Fatalf("%q %v", b.String(), b.truncated)
	}
}

// A tool a signal killed did not finish: whatever it printed, the result
// is an error whose summary and data say so, the data keeping what it
// left after that.
func TestKilledNativeTool(t *testing.T) {
	const note = "native tool 'nt' was killed by SIGSEGV (exit status 139) before it finished"
	exit := Exit{Code: 139, Signal: "SIGSEGV"}
	for _, tc := range []struct {
		name, stdout, stderr string
		data                 string
	}{
		{"silent", "", "", note},
		{"stderr", "", "core dumped?\n", note + "; what it wrote before:\ncore dumped?\n"},
		{"text on stdout", "half a line", "", note + "; what it wrote before:\nhalf a line"},
		{"a passed result", `{"status":"passed","summary":"all good"}`, "", note + "; what it wrote before:\nall good"},
		{"a result with data", `{"status":"passed","summary":"s","data":"d"}`, "", note + "; what it wrote before:\nd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := parseNativeOutput("nt", "signal: segmentation fault", false, tc.stdout, tc.stderr)
			r = killed("nt", r, exit, strings.TrimSpace(tc.stdout) != "")
			if want := (ToolResult{Status: StatusError, Summary: Str(note), Data: Str(tc.data)}); !sameResult(r, want) {
				t.Errorf("result %+v %q, want data %q", r, *r.Data, tc.data)
			}
		})
	}
}
