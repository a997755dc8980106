// Command portthief is the hostile local user of steer_attack_linux_test.go:
// run as another uid, it listens on the loopback port a capsule of the
// victim's left behind (the -port flag, 0 for any), prints "port N" once
// it listens, and then one line per HTTP request it is sent: the method,
// the path and the Authorization header, which is what it is after. It
// answers every request 404 and runs until it is killed.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
)

func main() {
	port := flag.Int("port", 0, "the port to take")
	flag.Parse()
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(*port)))
	if err != nil {
		fmt.Fprintln(os.Stderr, "portthief:", err)
		os.Exit(1)
	}
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	say("port %d", ln.Addr().(*net.TCPAddr).Port)
	_ = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		say("request %s %s authorization=%q", r.Method, r.URL.Path, r.Header.Get("Authorization"))
		http.NotFound(w, r)
	}))
}
