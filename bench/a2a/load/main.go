// Command load sends tasks to A2A servers from concurrent clients and
// reports throughput and latency: the A2A load benchmark (run.sh).
// Each client is the official Go SDK's v1.0 JSON-RPC client making
// blocking SendMessage calls; a task counts when it came back completed
// with its reply: "echo: TEXT" from a target given as NAME=URL, the fixed
// REPLY from one given as NAME=URL=REPLY (a scripted driver answers every
// task alike).
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/mur-go/mur/internal/testing/a2atask"
)

func main() {
	tasks := flag.Int("tasks", 10000, "tasks to send")
	clients := flag.Int("clients", 16, "concurrent clients")
	flag.Parse()
	failed := false
	for _, target := range flag.Args() {
		name, url, _ := strings.Cut(target, "=")
		url, fixed, _ := strings.Cut(url, "=")
		if err := run(name, url, fixed, *tasks, *clients); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

func run(name, url, fixed string, n, clients int) error {
	ctx := context.Background()
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	var next, bad atomic.Int64
	lat := make([][]time.Duration, clients)
	var wg sync.WaitGroup
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cl, err := a2aclient.NewFromEndpoints(ctx, []*a2a.AgentInterface{{URL: "http://" + url, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.Version}},
				a2aclient.WithJSONRPCTransport(hc))
			if err != nil {
				bad.Add(1)
				return
			}
			defer cl.Destroy()
			for i := next.Add(1); i <= int64(n); i = next.Add(1) {
				text := fmt.Sprintf("task %d", i)
				t0 := time.Now()
				res, err := cl.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(text))})
				lat[c] = append(lat[c], time.Since(t0))
				want := "echo: " + text
				if fixed != "" {
					want = fixed
				}
				task, ok := res.(*a2a.Task)
				if err != nil || !ok || task.Status.State != a2a.TaskStateCompleted || !strings.Contains(a2atask.Text(task), want) {
					bad.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	all := slices.Concat(lat...)
	slices.Sort(all)
	pct := func(p float64) time.Duration {
		if len(all) == 0 {
			return 0
		}
		return all[min(len(all)-1, int(float64(len(all))*p))]
	}
	fmt.Printf("%-12s %6d tasks  %3d clients  %8.0f tasks/s  p50 %7.2f ms  p99 %7.2f ms  failed %d\n",
		name, len(all), clients, float64(len(all))/elapsed.Seconds(),
		float64(pct(0.50).Microseconds())/1000, float64(pct(0.99).Microseconds())/1000, bad.Load())
	if bad.Load() > 0 {
		return fmt.Errorf("%d tasks failed", bad.Load())
	}
	return nil
}
