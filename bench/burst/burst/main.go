// Command burst starts N copies of an A2A server command at once and
// reports how long until every one served its first task, and the
// proportional set size (PSS) of each once idle: the start-up benchmark
// (bench/burst/run.sh).
//
//	burst -n N [-idle D] [-reply TEXT] NAME -- COMMAND ARGS...
//
// Each copy must print its address on stdout, either as mur run --json
// does ({"url":"HOST:PORT",...}) or as the stand-ins do ("url HOST:PORT").
// Its first task is one blocking SendMessage from the a2a-go SDK's v1.0
// JSON-RPC client; it counts when it comes back completed with REPLY (or
// "echo: TEXT" when -reply is empty). Copies get a stdin pipe that stays
// open until the end and are then signalled with SIGTERM.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/mur-go/mur/internal/testing/a2atask"
)

func main() {
	n := flag.Int("n", 1, "copies to start at once")
	idle := flag.Duration("idle", 3*time.Second, "how long every copy idles after its first task before its PSS is read")
	reply := flag.String("reply", "", "the reply every task must carry (default: an echo of the task)")
	timeout := flag.Duration("timeout", 5*time.Minute, "give up after this long")
	logPath := flag.String("log", "", "append every copy's stderr to this file (default: burst's stderr)")
	flag.Parse()
	if flag.NArg() < 3 || flag.Arg(1) != "--" {
		fmt.Fprintln(os.Stderr, "usage: burst -n N [-idle D] [-reply TEXT] [-log FILE] NAME -- COMMAND ARGS...")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	stderr := io.Writer(os.Stderr)
	if *logPath != "" {
		f, err := os.OpenFile(*logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			fmt.Fprintln(os.Stderr, "burst:", err)
			os.Exit(1)
		}
		defer f.Close()
		stderr = f
	}
	if err := run(ctx, flag.Arg(0), flag.Args()[2:], *n, *idle, *reply, stderr); err != nil {
		fmt.Fprintf(os.Stderr, "burst %s: %v\n", flag.Arg(0), err)
		os.Exit(1)
	}
}

// copyRun is one started copy and what was measured of it.
type copyRun struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	url   time.Duration // launch to its address on stdout
	first time.Duration // launch to its first task answered
	cpu   time.Duration // user+system CPU it had used by then
	pss   int64         // kB, the process and its descendants
	err   error
}

func run(ctx context.Context, name string, argv []string, n int, idle time.Duration, reply string, stderr io.Writer) error {
	copies := make([]*copyRun, n)
	for i := range copies {
		c := &copyRun{cmd: exec.CommandContext(ctx, argv[0], argv[1:]...)}
		c.cmd.Stderr = stderr
		c.cmd.Cancel = func() error { return c.cmd.Process.Signal(syscall.SIGTERM) }
		copies[i] = c
	}
	defer stopAll(copies)
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	var wg sync.WaitGroup
	start := time.Now()
	for i, c := range copies {
		var err error
		if c.stdin, err = c.cmd.StdinPipe(); err == nil {
			var out io.ReadCloser
			if out, err = c.cmd.StdoutPipe(); err == nil {
				if err = c.cmd.Start(); err == nil {
					wg.Add(1)
					go func() {
						defer wg.Done()
						c.err = c.serve(ctx, hc, start, bufio.NewReader(out), i, reply)
					}()
					continue
				}
			}
		}
		return fmt.Errorf("starting copy %d: %w", i, err)
	}
	wg.Wait()
	all := time.Since(start)
	for i, c := range copies {
		if c.err != nil {
			return fmt.Errorf("copy %d: %w", i, c.err)
		}
	}
	time.Sleep(idle) // a benchmark, not a test: idle is what is measured
	for i, c := range copies {
		var err error
		if c.pss, err = treePSS(c.cmd.Process.Pid); err != nil {
			return fmt.Errorf("copy %d: reading its PSS: %w", i, err)
		}
	}
	dur := func(f func(*copyRun) time.Duration) (p50, max time.Duration) {
		ds := make([]time.Duration, n)
		for i, c := range copies {
			ds[i] = f(c)
		}
		slices.Sort(ds)
		return ds[n/2], ds[n-1]
	}
	u50, umax := dur(func(c *copyRun) time.Duration { return c.url })
	f50, fmax := dur(func(c *copyRun) time.Duration { return c.first })
	var sum, most int64
	var cpu time.Duration
	for _, c := range copies {
		sum += c.pss
		most = max(most, c.pss)
		cpu += c.cpu
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	fmt.Printf("%-8s n=%-4d all served %8.1f ms  url p50 %7.1f max %7.1f ms  first task p50 %7.1f max %7.1f ms  PSS mean %6.1f max %6.1f MB  CPU mean %6.1f ms\n",
		name, n, ms(all), ms(u50), ms(umax), ms(f50), ms(fmax), float64(sum)/float64(n)/1024, float64(most)/1024, ms(cpu)/float64(n))
	return nil
}

var urlPattern = regexp.MustCompile(`"url":"([^"]+)"|^url (\S+)`)

// serve reads the copy's address from out, drains the rest, and sends it
// its first task.
func (c *copyRun) serve(ctx context.Context, hc *http.Client, start time.Time, out *bufio.Reader, i int, reply string) error {
	var addr string
	for addr == "" {
		line, err := out.ReadString('\n')
		if err != nil {
			return fmt.Errorf("no address on its stdout: %w", err)
		}
		if m := urlPattern.FindStringSubmatch(line); m != nil {
			addr = m[1] + m[2]
		}
	}
	c.url = time.Since(start)
	go func() { _, _ = io.Copy(io.Discard, out) }()
	cl, err := a2aclient.NewFromEndpoints(ctx, []*a2a.AgentInterface{{URL: "http://" + addr, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.Version}},
		a2aclient.WithJSONRPCTransport(hc))
	if err != nil {
		return err
	}
	defer cl.Destroy()
	text := "first task " + strconv.Itoa(i)
	res, err := cl.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(text))})
	if err != nil {
		return fmt.Errorf("its first task: %w", err)
	}
	c.first = time.Since(start)
	c.cpu, _ = cpuTime(c.cmd.Process.Pid)
	want := reply
	if want == "" {
		want = "echo: " + text
	}
	task, ok := res.(*a2a.Task)
	if !ok || task.Status.State != a2a.TaskStateCompleted || !strings.Contains(a2atask.Text(task), want) {
		return fmt.Errorf("its first task did not complete with %q: %v", want, res)
	}
	return nil
}

// cpuTime is the user and system CPU time pid has used (from
// /proc/PID/stat, in clock ticks of 10 ms: a mean over many copies).
func cpuTime(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// Fields after the command name, which is in parentheses and may hold
	// spaces: utime and stime are the 12th and 13th of them.
	_, rest, ok := strings.Cut(string(b), ") ")
	f := strings.Fields(rest)
	if !ok || len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	var ticks int64
	for _, s := range f[11:13] {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, err
		}
		ticks += v
	}
	return time.Duration(ticks) * 10 * time.Millisecond, nil
}

// treePSS is the PSS of pid and all its descendants, in kB.
func treePSS(pid int) (int64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/smaps_rollup")
	if err != nil {
		return 0, err
	}
	var total int64
	for line := range strings.Lines(string(b)) {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "Pss:" {
			if total, err = strconv.ParseInt(f[1], 10, 64); err != nil {
				return 0, err
			}
		}
	}
	tasks, _ := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	for _, t := range tasks {
		kids, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + t.Name() + "/children")
		for _, k := range strings.Fields(string(kids)) {
			kid, err := strconv.Atoi(k)
			if err != nil {
				return 0, err
			}
			p, err := treePSS(kid)
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				return 0, err
			}
			total += p
		}
	}
	return total, nil
}

// stopAll closes every copy's stdin, signals it and waits for it.
func stopAll(copies []*copyRun) {
	for _, c := range copies {
		if c.cmd.Process != nil {
			_ = c.stdin.Close()
			_ = c.cmd.Process.Signal(syscall.SIGTERM)
		}
	}
	for _, c := range copies {
		if c.cmd.Process != nil {
			_ = c.cmd.Wait()
		}
	}
}
