//go:build wasip1

// Command wasitest is the WASI test guest. It is a reactor like toolrun
// (abi.go) exporting murmur:tool/run, wrapped with the preview1 reactor
// adapter, so it reaches the host only through WASI 0.2. (A plain wasip1
// command cannot be used: under the command adapter, the adapter and Go's
// allocator both grow linear memory and Go overwrites the adapter's state.)
//
// run's input data is a space-separated command line; its first word picks
// what to do. Results go to stdout one "key=value" per line, errors as
// "err=<text>", so the host test can compare exactly; run itself returns
// status passed and nothing else.
package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// main is required of package main even in c-shared mode, where it never runs.
func main() {}

// do runs one command line.
func do(cmd []string) {
	if len(cmd) == 0 {
		fmt.Println("err=no mode")
		os.Exit(2)
	}
	args := cmd[1:]
	switch cmd[0] {
	case "env":
		fmt.Printf("args=%s\n", strings.Join(os.Args, ","))
		env := os.Environ()
		sort.Strings(env)
		fmt.Printf("env=%s\n", strings.Join(env, ","))
		wd, err := os.Getwd()
		fmt.Printf("cwd=%s err=%v\n", wd, err)
	case "exit":
		code, _ := strconv.Atoi(args[0])
		fmt.Println("exiting")
		os.Exit(code)
	case "stdin":
		b, err := io.ReadAll(os.Stdin)
		fmt.Printf("stdin=%s err=%v\n", b, err)
	case "stderr":
		fmt.Fprintln(os.Stderr, strings.Join(args, " "))
	case "clock":
		start := time.Now()
		time.Sleep(20 * time.Millisecond)
		el := time.Since(start)
		fmt.Printf("slept=%v year-ok=%v\n", el >= 20*time.Millisecond, start.Year() >= 2024)
	case "random":
		b := make([]byte, 16)
		_, err := rand.Read(b)
		fmt.Printf("random=%d err=%v\n", len(hex.EncodeToString(b)), err)
	case "sleep":
		d, _ := time.ParseDuration(args[0])
		time.Sleep(d)
		fmt.Println("woke")
	case "files":
		files(args[0])
	case "try":
		// try OP PATH [PATH2]: one filesystem operation, its errno printed.
		fmt.Println(try(args[0], args[1:]))
	case "copy":
		// copy SRC DST: the benchmark's read-then-write of a file.
		b, err := os.ReadFile(args[0])
		if err == nil {
			err = os.WriteFile(args[1], b, 0o644)
		}
		fmt.Printf("copied=%d err=%v\n", len(b), err)
	default:
		fmt.Println("err=unknown mode")
		os.Exit(2)
	}
}

// files exercises the descriptor API under dir and prints what it saw.
func files(dir string) {
	p := func(name string) string { return dir + "/" + name }
	check := func(what string, err error) {
		if err != nil {
			fmt.Printf("err=%s: %v\n", what, err)
			os.Exit(1)
		}
	}
	check("mkdir", os.Mkdir(p("sub"), 0o755))
	check("write", os.WriteFile(p("sub/a.txt"), []byte("hello"), 0o644))
	f, err := os.OpenFile(p("sub/a.txt"), os.O_APPEND|os.O_WRONLY, 0)
	check("open-append", err)
	_, err = f.WriteString(", world")
	check("append", err)
	check("close", f.Close())
	b, err := os.ReadFile(p("sub/a.txt"))
	check("read", err)
	fmt.Printf("content=%s\n", b)
	fi, err := os.Stat(p("sub/a.txt"))
	check("stat", err)
	fmt.Printf("size=%d dir=%v\n", fi.Size(), fi.IsDir())
	check("rename", os.Rename(p("sub/a.txt"), p("sub/b.txt")))
	check("symlink", os.Symlink("b.txt", p("sub/link")))
	target, err := os.Readlink(p("sub/link"))
	check("readlink", err)
	fmt.Printf("link=%s\n", target)
	b, err = os.ReadFile(p("sub/link"))
	check("read-link", err)
	fmt.Printf("via-link=%s\n", b)
	check("truncate", os.Truncate(p("sub/b.txt"), 5))
	check("chtimes", os.Chtimes(p("sub/b.txt"), time.Unix(1e9, 0), time.Unix(1e9, 0)))
	fi, err = os.Stat(p("sub/b.txt"))
	check("stat2", err)
	fmt.Printf("size=%d mtime=%d\n", fi.Size(), fi.ModTime().Unix())
	ents, err := os.ReadDir(p("sub"))
	check("readdir", err)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	fmt.Printf("entries=%s\n", strings.Join(names, ","))
	check("remove-link", os.Remove(p("sub/link")))
	check("remove-file", os.Remove(p("sub/b.txt")))
	check("rmdir", os.Remove(p("sub")))
	_, err = os.Stat(p("sub"))
	fmt.Printf("gone=%v\n", errors.Is(err, os.ErrNotExist))
}

// try runs one operation and reports "ok" or the errno's name.
func try(op string, a []string) string {
	var err error
	switch op {
	case "read":
		_, err = os.ReadFile(a[0])
	case "write":
		err = os.WriteFile(a[0], []byte("x"), 0o644)
	case "mkdir":
		err = os.Mkdir(a[0], 0o755)
	case "remove":
		err = os.Remove(a[0])
	case "rename":
		err = os.Rename(a[0], a[1])
	case "symlink":
		err = os.Symlink(a[0], a[1])
	case "link":
		err = os.Link(a[0], a[1])
	case "stat":
		_, err = os.Stat(a[0])
	case "chtimes":
		err = os.Chtimes(a[0], time.Unix(1, 0), time.Unix(1, 0))
	case "truncate":
		err = os.Truncate(a[0], 0)
	default:
		return "err=unknown op"
	}
	if err == nil {
		return "ok"
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return "errno=" + errnoName(errno)
	}
	return "err=" + err.Error()
}

func errnoName(e syscall.Errno) string {
	switch e {
	case syscall.EPERM:
		return "EPERM"
	case syscall.ENOENT:
		return "ENOENT"
	case syscall.EACCES:
		return "EACCES"
	case syscall.EEXIST:
		return "EEXIST"
	case syscall.EROFS:
		return "EROFS"
	case syscall.ENOTCAPABLE:
		return "ENOTCAPABLE"
	case syscall.EXDEV:
		return "EXDEV"
	case syscall.ELOOP:
		return "ELOOP"
	case syscall.EISDIR:
		return "EISDIR"
	case syscall.ENOTDIR:
		return "ENOTDIR"
	case syscall.EBADF:
		return "EBADF"
	case syscall.EINVAL:
		return "EINVAL"
	}
	return fmt.Sprintf("errno(%d)", int(e))
}
