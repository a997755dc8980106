package cli

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/base/running"
)

// targetHelp is how every command that talks to a served capsule reads
// its TARGET argument.
const targetHelp = `TARGET names the capsule, read in this order:
  a URL          http://HOST:PORT, https://HOST:PORT or HOST:PORT
                 (localhost:PORT, as "mur run" prints it);
  @N             the N-th most recently started capsule "mur ps" lists
                 (@1 is the newest);
  anything else  a session id (whole, or its last 4 or more characters),
                 a capsule name, or a session's workdir, matched against
                 the capsules this user serves (~/.murmur/running). It
                 must match exactly one: otherwise mur lists the
                 candidates and exits 2.
A capsule found by @N, id or name gets MURMUR_A2A_TOKEN only if it asks
for a token, and only after mur has checked that the process listening on
its port is this user's.`

// target is what a TARGET argument named.
type target struct {
	// url is where requests go: the argument itself for a URL.
	url string
	// entry is the served capsule found in the registry, nil for a URL.
	entry *running.Entry
}

// isURL reports whether arg reads as a URL rather than a capsule's name:
// an http(s) scheme, or HOST:PORT with a numeric port.
func isURL(arg string) bool {
	lower := strings.ToLower(arg)
	if strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") {
		return true
	}
	host, port, err := net.SplitHostPort(arg)
	if err != nil || host == "" || strings.ContainsAny(host, "/@") {
		return false
	}
	n, err := strconv.Atoi(port)
	return err == nil && n > 0 && n < 65536
}

// resolveTarget reads a TARGET argument (targetHelp). A name found in the
// registry is checked to be served by this user (running.CheckListener)
// before anything is sent to it.
func resolveTarget(cmd *cobra.Command, arg string) (target, error) {
	if isURL(arg) {
		return target{url: arg}, nil
	}
	e, err := resolveEntry(cmd, arg)
	if err != nil {
		return target{}, err
	}
	return target{url: e.URL, entry: &e}, nil
}

// resolveServed reads a TARGET that must be a capsule this user serves
// (mur stop, mur ps): a URL is looked up among them by its port.
func resolveServed(cmd *cobra.Command, arg string) (running.Entry, error) {
	if !isURL(arg) {
		return resolveEntry(cmd, arg)
	}
	port, ok := loopbackPort(arg)
	entries, err := runningSessions()
	if err != nil {
		return running.Entry{}, err
	}
	for _, e := range entries {
		if p, _ := e.Port(); ok && p == port {
			return e, checkListener(e)
		}
	}
	return running.Entry{}, fmt.Errorf("%s is not a capsule you serve (mur ps lists them): %w", arg, running.ErrNotFound)
}

// resolveEntry finds a served capsule by @N, id, suffix, name or workdir.
func resolveEntry(cmd *cobra.Command, arg string) (running.Entry, error) {
	entries, err := runningSessions()
	if err != nil {
		return running.Entry{}, err
	}
	e, err := running.Resolve(entries, arg)
	var amb *running.AmbiguousError
	var bad *running.SelectorError
	if errors.As(err, &amb) || errors.As(err, &bad) {
		return running.Entry{}, &usageError{cmd, err}
	}
	if err != nil {
		return running.Entry{}, err
	}
	return e, checkListener(e)
}

// checkListener makes sure the process on e's port is this user's.
func checkListener(e running.Entry) error {
	port, _ := e.Port()
	if err := running.CheckListener(port); err != nil {
		return fmt.Errorf("not contacting %s (%s): %w", e.SessionID, e.Name, err)
	}
	return nil
}

// loopbackPort is the port of a URL whose host is loopback.
func loopbackPort(arg string) (int, bool) {
	hostport := arg
	if i := strings.Index(hostport, "://"); i >= 0 {
		hostport = hostport[i+3:]
	}
	hostport, _, _ = strings.Cut(hostport, "/")
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return 0, false
	}
	n, err := strconv.Atoi(port)
	if err != nil {
		return 0, false
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return 0, false
	}
	return n, true
}

// token is the bearer token for t: none for a registered capsule that
// asks for none, else flag or MURMUR_A2A_TOKEN.
func (t target) token(flag string) string {
	if t.entry != nil && !t.entry.Token {
		return ""
	}
	return tokenOr(flag)
}

// name is how output refers to t: the URL as given, or the session id,
// which stays valid where @N or a name may come to mean another capsule.
func (t target) name() string {
	if t.entry != nil {
		return t.entry.SessionID
	}
	return t.url
}
