// Command nativetool is a native tool double for the tools package's tests. It
// reads the tool-input JSON on stdin and behaves by its data: "env" reports
// its environment, working directory and stdin; "raw" prints plain text;
// "fail" writes to stderr and exits 3; "failed" reports status failed;
// "spawn" connects to the address in peer.addr, starts a child that
// inherits the connection and sleeps, and sleeps itself: the peer sees the
// connection close only once both processes are gone.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"time"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "child" {
		time.Sleep(time.Minute)
		return
	}
	in, _ := io.ReadAll(os.Stdin)
	var input struct {
		Data    *string `json:"data"`
		LogPath *string `json:"log_path"`
	}
	if err := json.Unmarshal(in, &input); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	mode := ""
	if input.Data != nil {
		mode = *input.Data
	}
	switch mode {
	case "env":
		wd, _ := os.Getwd()
		json.NewEncoder(os.Stdout).Encode(map[string]any{
			"status":  "passed",
			"summary": "environment",
			"data":    map[string]any{"env": os.Environ(), "cwd": wd, "stdin": string(in)},
		})
	case "raw":
		fmt.Print("plain text")
	case "fail":
		fmt.Fprint(os.Stderr, "went wrong")
		os.Exit(3)
	case "failed":
		fmt.Print(`{"status":"failed","summary":"nope","data":"why"}`)
	case "spawn":
		addr, err := os.ReadFile("peer.addr")
		if err != nil {
			panic(err)
		}
		conn, err := net.Dial("tcp", string(addr))
		if err != nil {
			panic(err)
		}
		f, err := conn.(*net.TCPConn).File()
		if err != nil {
			panic(err)
		}
		child := exec.Command(os.Args[0], "child")
		child.ExtraFiles = []*os.File{f}
		if err := child.Start(); err != nil {
			panic(err)
		}
		time.Sleep(time.Minute)
	}
}
