package firstparty_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/internal/host"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/testing/mockprovider"
	"github.com/mur-go/mur/internal/testing/testguest"
	"github.com/mur-go/mur/internal/tools"
)

// BenchmarkDriverCall64KiB is one turn of a 64 KiB conversation through
// the openai-compatible component (host + driver: store, instantiation,
// translation, wasi:http) against a provider answering at once, beside a
// plain Go client sending a request of the same size in the same run.
// "component" starts each call's store from a snapshot of the driver's
// initialisation (the default); "component-init" runs it every call;
// "anthropic" is "component" with the anthropic driver. cpu-ms/op is the
// whole process's CPU time per call (host, guest, the mock provider): on
// a shared machine it moves far less than the wall time.
func BenchmarkDriverCall64KiB(b *testing.B) {
	srv := mockprovider.New(b)
	srv.SetFallback(mockprovider.OpenAI("ok"))
	anth := mockprovider.New(b)
	anth.SetFallback(mockprovider.Anthropic("", "ok"))
	text := strings.Repeat("a", 64<<10)
	req := `{"max_tokens":64,"messages":[{"content":[{"text":"` + text + `","type":"text"}],"role":"user"}],"model":"m","params":{},"system":"s","tools":[]}`
	for _, mode := range []struct {
		name       string
		driver     string
		srv        *mockprovider.Server
		normalInit bool
	}{{"component", testguest.DriverOpenAIGo, srv, false}, {"component-init", testguest.DriverOpenAIGo, srv, true},
		{"anthropic", testguest.DriverAnthropicGo, anth, false}} {
		b.Run(mode.name, func(b *testing.B) {
			srv := mode.srv
			rules, _ := policy.ParseNetRules([]string{srv.URL})
			benchInvoke(b, tools.WasmToolConfig{Name: "d", Component: guests.Compile(b, mode.driver),
				Grants: wasip2.Grants{Env: [][2]string{{"MURMUR_INFERENCE_ENDPOINT", srv.URL}, {"MURMUR_INFERENCE_DRIVER_CONFIG", `{"stream":false}`}}, Net: rules},
				Limits: stage.DefaultToolLimits(), NormalInit: mode.normalInit}, req)
		})
	}
	b.Run("net/http", func(b *testing.B) {
		body := []byte(req)
		cpu := startCPU()
		for b.Loop() {
			resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", bytes.NewReader(body))
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		cpu.report(b)
	})
}

// cpuClock measures the process's CPU time across a benchmark loop.
type cpuClock struct {
	start time.Duration
	ok    bool
}

// benchInvoke measures calls of the WASM tool cfg describes (on a linker
// of its own) with the data req, after a first call that takes the
// snapshot, reporting cpu-ms/op beside the wall time.
func benchInvoke(b *testing.B, cfg tools.WasmToolConfig, req string) {
	linker, err := host.NewToolLinker()
	if err != nil {
		b.Fatal(err)
	}
	cfg.Linker = linker
	wt, err := tools.NewWasmTool(cfg)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := wt.Invoke(context.Background(), tools.ToolInput{Data: &req}); err != nil {
		b.Fatal(err)
	}
	cpu := startCPU()
	for b.Loop() {
		r, err := wt.Invoke(context.Background(), tools.ToolInput{Data: &req})
		if err != nil || r.Status != tools.StatusPassed {
			b.Fatalf("%v %v", err, r.Status)
		}
	}
	cpu.report(b)
}

func startCPU() cpuClock {
	t, ok := processCPU()
	return cpuClock{t, ok}
}

func (c cpuClock) report(b *testing.B) {
	if t, ok := processCPU(); ok && c.ok && b.N > 0 {
		b.ReportMetric(float64(t-c.start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	}
}
