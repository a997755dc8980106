package launch_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// slowBodies is the slow-body attack on an HTTP server: n connections, each
// a POST / whose headers announce size bytes of a JSON-RPC message/send and
// whose body stops 1 KiB short, then stalls, spread over the loopback
// addresses 127.0.0.1 to 127.0.0.<sources>. The body is a valid prefix (a
// text part still open), so a decoder reading it keeps every byte.
type slowBodies struct {
	conns   []net.Conn
	refused int // connections the server closed before taking the whole prefix
}

func slowBodyAttack(t *testing.T, addr string, n, size, sources int, token string) *slowBodies {
	t.Helper()
	prefix := `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"messageId":"m","role":"user","parts":[{"kind":"text","text":"`
	head := "POST / HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\nContent-Length: " + strconv.Itoa(size) + "\r\n"
	if token != "" {
		head += "Authorization: Bearer " + token + "\r\n"
	}
	sent := append([]byte(head+"\r\n"+prefix), bytes.Repeat([]byte("A"), size-1024-len(prefix))...)
	a := &slowBodies{conns: make([]net.Conn, n)}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(1+i%sources))}}
			c, err := d.Dial("tcp", addr)
			if err != nil {
				errs[i] = err
				return
			}
			a.conns[i] = c
			_, errs[i] = c.Write(sent)
		})
	}
	wg.Wait()
	t.Cleanup(a.close)
	var open []net.Conn
	for i, c := range a.conns {
		switch {
		case c == nil:
			t.Fatalf("attack connection %d: %v", i, errs[i])
		case errs[i] != nil:
			a.refused++
		default:
			open = append(open, c)
		}
	}
	a.refused += waitConsumed(t, open)
	return a
}

func (a *slowBodies) close() {
	for _, c := range a.conns {
		if c != nil {
			c.Close()
		}
	}
}

// waitConsumed waits until the server has read everything sent on each
// connection (nothing left unacknowledged by its kernel or unread in its
// socket) or has closed it, which /proc/net/tcp shows; it returns how many
// it closed.
func waitConsumed(t *testing.T, conns []net.Conn) int {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		socks := tcpSockets(t)
		closed, pending := 0, 0
		for _, c := range conns {
			local, remote := c.LocalAddr().(*net.TCPAddr), c.RemoteAddr().(*net.TCPAddr)
			mine, ok := socks[[2]int{local.Port, remote.Port}]
			theirs, ok2 := socks[[2]int{remote.Port, local.Port}]
			switch {
			case !ok || mine.state != tcpEstablished || !ok2:
				closed++
			case mine.txQueue != 0 || theirs.rxQueue != 0:
				pending++
			}
		}
		if pending == 0 {
			return closed
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 60 s the server still has not read %d of %d attack connections", pending, len(conns))
		}
		<-tick.C
	}
}

const tcpEstablished = 1

type tcpSocket struct{ state, txQueue, rxQueue int }

// tcpSockets reads /proc/net/tcp: the IPv4 sockets of this network
// namespace by (local port, remote port).
func tcpSockets(t *testing.T) map[[2]int]tcpSocket {
	t.Helper()
	data, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		t.Fatal(err)
	}
	out := map[[2]int]tcpSocket{}
	for _, line := range strings.Split(string(data), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		port := func(addr string) int {
			_, p, _ := strings.Cut(addr, ":")
			n, _ := strconv.ParseInt(p, 16, 32)
			return int(n)
		}
		tx, rx, _ := strings.Cut(f[4], ":")
		st, _ := strconv.ParseInt(f[3], 16, 32)
		txq, _ := strconv.ParseInt(tx, 16, 64)
		rxq, _ := strconv.ParseInt(rx, 16, 64)
		out[[2]int{port(f[1]), port(f[2])}] = tcpSocket{state: int(st), txQueue: int(txq), rxQueue: int(rxq)}
	}
	return out
}

// procMemory reads a /proc/<pid>/status field in bytes (VmRSS, VmHWM).
func procMemory(t *testing.T, pid int, field string) int64 {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("%s: %q", field, line)
			}
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// resetPeak starts a new VmHWM at the process's current RSS.
func resetPeak(t *testing.T, pid int) {
	t.Helper()
	if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0); err != nil {
		t.Fatal(err)
	}
}

// sendTask sends one v0.3 message/send over a connection of its own and
// returns the task's state and text, or the HTTP status when the answer
// is not a task.
func sendTask(ctx context.Context, base, token, text string) (state, answer string, err error) {
	body := `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"messageId":"legit","role":"user","parts":[{"kind":"text","text":` + strconv.Quote(text) + `}]}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/", strings.NewReader(body))
	if err != nil {
		return "", "", err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := hc.Do(req)
	if err != nil {
		return "", "", err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var reply struct {
		Result struct {
			Status struct {
				State   string `json:"state"`
				Message struct {
					Parts []struct {
						Text string `json:"text"`
					} `json:"parts"`
				} `json:"message"`
			} `json:"status"`
		} `json:"result"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(data, &reply) != nil {
		return "", "", fmt.Errorf("HTTP %d: %q", resp.StatusCode, data)
	}
	var b strings.Builder
	for _, p := range reply.Result.Status.Message.Parts {
		b.WriteString(p.Text)
	}
	return reply.Result.Status.State, b.String(), nil
}

// readResponse reads one HTTP response's status from c.
func readResponse(c net.Conn) (int, error) {
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}
