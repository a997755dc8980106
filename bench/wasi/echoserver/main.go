// Command echoserver is the loopback HTTP server of bench/wasi/run.sh:
// the Go benchmarks and the jco/Node harness send their requests to this
// one process, so both measure against the same server. It answers every
// request with its body followed by its method (the same as the wasip2
// tests' echo server), prints its base URL on stdout and serves until
// stdin closes.
package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
)

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("http://%s\n", ln.Addr())
	go func() {
		// Exiting with the script that started us: no stray server.
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	err = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(w, r.Body)
		io.WriteString(w, r.Method)
	}))
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
