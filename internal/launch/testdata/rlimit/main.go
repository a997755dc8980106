// Command rlimit is the native tool of the rlimit tests: it tries to
// exceed RLIMIT_NOFILE and RLIMIT_FSIZE and writes what stopped it to
// rlimit.txt in its working directory (the capsule's workdir), one
// "key=value" per line, before answering as a passed tool call.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// tries bounds both attempts, far above the limits the tests declare.
const tries = 4096

func main() {
	var report strings.Builder
	line := func(k string, v any) { fmt.Fprintf(&report, "%s=%v\n", k, v) }
	for _, l := range []struct {
		name string
		res  int
	}{{"nofile", syscall.RLIMIT_NOFILE}, {"fsize", syscall.RLIMIT_FSIZE}, {"core", syscall.RLIMIT_CORE}, {"as", syscall.RLIMIT_AS}} {
		var r syscall.Rlimit
		if err := syscall.Getrlimit(l.res, &r); err == nil {
			line(l.name+"-soft", r.Cur)
			line(l.name+"-hard", r.Max)
		}
	}
	// Report the limit, not die of SIGXFSZ, when a write crosses it.
	signal.Ignore(syscall.SIGXFSZ)
	opened, openErr := 0, error(nil)
	var files []*os.File
	for opened < tries {
		f, err := os.Open(os.DevNull)
		if err != nil {
			openErr = err
			break
		}
		files = append(files, f)
		opened++
	}
	for _, f := range files {
		f.Close()
	}
	line("opened", opened)
	line("open-error", openErr)
	written, writeErr := 0, error(nil)
	if f, err := os.Create("big.bin"); err != nil {
		writeErr = err
	} else {
		chunk := make([]byte, 4096)
		for written < tries*len(chunk) {
			n, err := f.Write(chunk)
			written += n
			if err != nil {
				writeErr = err
				break
			}
		}
		f.Close()
		os.Remove("big.bin")
	}
	line("written", written)
	line("write-error", writeErr)
	if err := os.WriteFile("rlimit.txt", []byte(report.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	json.NewEncoder(os.Stdout).Encode(map[string]string{"status": "passed", "summary": "probed"})
}
