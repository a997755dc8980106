//go:build wasip1

// Command cmdrun is the WASI command guest of "mur wasm run" and of
// "mur wasm call --argv": a component exporting wasi:cli/run@0.2.12. Big
// Go's wasip1 command start-up trips the preview1 command adapter (it
// reads the clock before its allocator exists), so cmdrun is a c-shared
// reactor, wrapped with the reactor adapter, that exports run itself and
// package cabi's allocator (the adapter's state comes from it); the
// adapter's start-up call to _initialize fills os.Args. Its first argument
// picks what it does; see guests/README.md.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	_ "github.com/mur-go/mur/guests/go/cabi" // exports cabi_realloc
)

func main() {}

// run is wasi:cli/run's run: func() -> result, lowered to a function with
// no parameters returning the result's discriminant (0 ok, 1 err).
//
//go:wasmexport wasi:cli/run@0.2.12#run
func run() uint32 {
	command()
	return 0
}

func command() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: cmdrun args|echo WORDS…|stderr TEXT|exit N|cat FILE|stdin|env")
		os.Exit(2)
	}
	rest := os.Args[2:]
	switch os.Args[1] {
	case "args":
		b, _ := json.Marshal(os.Args)
		fmt.Println(string(b))
	case "echo":
		fmt.Println(strings.Join(rest, " "))
	case "stderr":
		fmt.Fprintln(os.Stderr, strings.Join(rest, " "))
	case "exit":
		fmt.Println("exiting")
		n, err := strconv.Atoi(strings.Join(rest, ""))
		if err != nil {
			fail(err)
		}
		os.Exit(n)
	case "cat":
		for _, p := range rest {
			b, err := os.ReadFile(p)
			if err != nil {
				fail(err)
			}
			os.Stdout.Write(b)
		}
	case "stdin":
		if _, err := io.Copy(os.Stdout, os.Stdin); err != nil {
			fail(err)
		}
	case "env":
		for _, kv := range os.Environ() {
			fmt.Println(kv)
		}
	default:
		fail(fmt.Errorf("unknown command %q", os.Args[1]))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "cmdrun:", err)
	os.Exit(1)
}
