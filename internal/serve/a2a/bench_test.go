package a2a

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"

	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/tools"
)

// benchAnswer is what the benchmark's driver double answers every task.
const benchAnswer = `{"stop_reason":"end_turn","content":[{"type":"text","text":"bench answer"}]}`

// BenchmarkServedTask is bench/a2a's mur run capsule without the engine:
// a queue+sleep session served by Serve around the real agent.Run,
// whose driver is a Go double answering one text turn, taking blocking
// SendMessage calls from 16 SDK clients over loopback. What it measures
// per task is everything a served task costs outside the driver
// component: the HTTP and JSON-RPC round trip, the registry, task.md, the
// trace records, out/result.txt, the events. cpu-ms/task is the process's
// CPU time (server and clients) per task outside the driver.
// "driver=2ms" spins for 2 ms in each driver call, as the engine works
// ~5 ms in the real capsule, so tasks queue up behind the loop as they
// do there.
func BenchmarkServedTask(b *testing.B) {
	for _, d := range []time.Duration{0, 2 * time.Millisecond} {
		b.Run(fmt.Sprintf("driver=%v", d), func(b *testing.B) { benchServed(b, d) })
	}
}

func benchServed(b *testing.B, driverTime time.Duration) {
	const clients = 16
	dir := b.TempDir()
	lc := manifest.Lifecycle{TaskAcceptance: AcceptQueue, AfterTask: "sleep", QueueDepth: 64, Conversation: "stateless"}
	sess := stage.LoopView{ID: "ses_bench", Workdir: stage.NewWorkdir(dir, dir, nil),
		Capsule: &manifest.Capsule{Name: "bench", Version: "0.1.0", Lifecycle: lc,
			Inference: &manifest.Inference{Model: "m", MaxTurns: manifest.DefaultMaxTurns, MaxTaskReopens: manifest.DefaultMaxTaskReopens}}}
	answer := benchAnswer
	var spun atomic.Int64
	drv := toolFunc(func(context.Context, tools.ToolInput) (tools.ToolResult, error) {
		if driverTime > 0 {
			spun.Add(int64(spin(b, driverTime)))
		}
		return tools.ToolResult{Status: tools.StatusPassed, Data: &answer}, nil
	})
	log := slog.New(slog.DiscardHandler)
	urls := make(chan string, 1)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, ServerOptions{SessionID: sess.ID, Workdir: dir, Lifecycle: lc, Card: CardInfo{Name: "bench", Version: "0.1.0"},
			Getenv: func(string) string { return "" }, Log: log, OnListen: func(u string) { urls <- u },
			Run: func(ctx context.Context, src agent.TaskSource) error {
				_, err := agent.Run(ctx, agent.Options{Staged: sess, Driver: drv, Tasks: src, Log: log})
				return err
			}})
	}()
	url := <-urls
	defer func() {
		stop()
		<-done
	}()
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	cls := make([]*a2aclient.Client, clients)
	for i := range cls {
		c, err := a2aclient.NewFromEndpoints(ctx, []*a2a.AgentInterface{{URL: "http://" + url, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.Version}},
			a2aclient.WithJSONRPCTransport(hc))
		if err != nil {
			b.Fatal(err)
		}
		cls[i] = c
	}
	send := func(c *a2aclient.Client, i int64) error {
		res, err := c.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(fmt.Sprintf("task %d", i)))})
		if err != nil {
			return err
		}
		if task, ok := res.(*a2a.Task); !ok || task.Status.State != a2a.TaskStateCompleted {
			return fmt.Errorf("task %d did not complete: %v", i, res)
		}
		return nil
	}
	if err := send(cls[0], 0); err != nil { // the tokenizer loads on the first task
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu0 := cpuTime(b)
	spun.Store(0)
	b.ResetTimer()
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for _, c := range cls {
		wg.Go(func() {
			for i := next.Add(1); i <= int64(b.N); i = next.Add(1) {
				if err := send(c, i); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	b.ReportMetric(float64(cpuTime(b)-cpu0-time.Duration(spun.Load()))/float64(b.N)/1e6, "cpu-ms/task")
	b.ReportMetric(float64(b.Elapsed())/float64(b.N)/1e6, "ms/task")
}

// spin works for d of this thread's CPU time (a loaded machine may take
// longer in wall time) and returns the CPU time it took.
func spin(b *testing.B, d time.Duration) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadTime(b)
	for {
		if t := threadTime(b) - start; t >= d {
			return t
		}
	}
}

func threadTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rusageThread is Linux's RUSAGE_THREAD, which package syscall does not name.
const rusageThread = 1

// cpuTime is the process's user and system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// toolFunc is a tools.Tool from a function.
type toolFunc func(context.Context, tools.ToolInput) (tools.ToolResult, error)

func (f toolFunc) Invoke(ctx context.Context, in tools.ToolInput) (tools.ToolResult, error) {
	return f(ctx, in)
}
