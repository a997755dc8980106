// Command nativetool is a native tool double for the tools package's tests. It
// reads the tool-input JSON on stdin and behaves by its data: "env" reports
// its environment, working directory and stdin; "raw" prints plain text;
// "fail" writes to stderr and exits 3; "failed" reports status failed;
// "spawn" starts a child that sleeps, writes the child's pid to child.pid
// and sleeps itself.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
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
		child := exec.Command(os.Args[0], "child")
		if err := child.Start(); err != nil {
			panic(err)
		}
		os.WriteFile("child.pid", []byte(strconv.Itoa(child.Process.Pid)), 0o644)
		time.Sleep(time.Minute)
	}
}
