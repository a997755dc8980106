package capsule_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"github.com/mur-go/mur/capsule"
	"github.com/mur-go/mur/engine/wasip2"
)

// agentYAML is an agent capsule whose model is mur's built-in scripted
// driver: it answers with the turns written under driver.config, offline
// and the same every time. A real capsule names openai-compatible or
// anthropic here, with its endpoint, model and api_key.
const agentYAML = `name: hello-agent
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted
  driver:
    artifact: scripted
    config:
      turns:
        - text: "Hello from the scripted model."
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
`

// Install the artifacts an agent capsule declares, then run it on a task.
func ExampleRun() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "capsule-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	manifest := filepath.Join(dir, "murmur.yaml")
	if err := os.WriteFile(manifest, []byte(agentYAML), 0o644); err != nil {
		panic(err)
	}
	// A home and a compilation cache of the example's own; a program
	// would usually leave both to the user's.
	home, cache := filepath.Join(dir, "home"), filepath.Join(dir, "cache")

	if err := capsule.Install(ctx, capsule.InstallOptions{Manifest: manifest, Home: home}); err != nil {
		fmt.Println("install:", err)
		return
	}
	res, err := capsule.Run(ctx, capsule.Options{Manifest: manifest, Task: "Say hello.", Home: home, CacheDir: cache})
	if err != nil {
		fmt.Println("run:", res.Status, err)
		return
	}
	fmt.Println(res.Status)
	fmt.Println(res.Text)
	_, err = os.Stat(filepath.Join(res.SessionDir, "trace.jsonl"))
	fmt.Println("trace kept:", err == nil)
	// Output:
	// ok
	// Hello from the scripted model.
	// trace kept: true
}

// Serve an agent capsule over A2A and send it a task with the official
// A2A Go SDK; cancelling the context stops the server.
func ExampleServe() {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	dir, err := os.MkdirTemp("", "capsule-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	manifest := filepath.Join(dir, "murmur.yaml")
	if err := os.WriteFile(manifest, []byte(agentYAML), 0o644); err != nil {
		panic(err)
	}
	home, cache := filepath.Join(dir, "home"), filepath.Join(dir, "cache")
	if err := capsule.Install(ctx, capsule.InstallOptions{Manifest: manifest, Home: home}); err != nil {
		fmt.Println("install:", err)
		return
	}

	// ask sends one task to the capsule at url and prints the answer.
	ask := func(url string) {
		defer stop() // one task is all this example serves
		card, err := agentcard.DefaultResolver.Resolve(ctx, "http://"+url)
		if err != nil {
			fmt.Println("card:", err)
			return
		}
		client, err := a2aclient.NewFromCard(ctx, card)
		if err != nil {
			fmt.Println("client:", err)
			return
		}
		defer client.Destroy()
		reply, err := client.SendMessage(ctx, &a2a.SendMessageRequest{
			Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("Say hello.")),
		})
		if err != nil {
			fmt.Println("send:", err)
			return
		}
		task := reply.(*a2a.Task)
		var text strings.Builder
		for _, art := range task.Artifacts {
			for _, p := range art.Parts {
				text.WriteString(p.Text())
			}
		}
		fmt.Println(card.Name, task.Status.State, text.String())
	}
	res, err := capsule.Serve(ctx, capsule.Options{Manifest: manifest, Home: home, CacheDir: cache,
		OnURL: func(url string) { go ask(url) }})
	fmt.Println(res.Status, err)
	// Output:
	// hello-agent TASK_STATE_COMPLETED Hello from the scripted model.
	// cancelled <nil>
}

// A failure mur names carries Murmur's code, where it is, and a hint.
func ExampleError() {
	dir, err := os.MkdirTemp("", "capsule-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	manifest := filepath.Join(dir, "murmur.yaml")
	if err := os.WriteFile(manifest, []byte("name: hello\nversion: \"0.1.0\"\nlifecycle:\n  after_task: nap\n"), 0o644); err != nil {
		panic(err)
	}
	_, err = capsule.Run(context.Background(), capsule.Options{Manifest: manifest})
	var e *capsule.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, filepath.Base(e.File), e.Line)
		fmt.Println(e.Message)
	}
	// Output:
	// E-MAN-002 murmur.yaml 4
	// field 'lifecycle.after_task' has invalid value 'nap' (expected one of: exit, sleep)
}

// Call one exported function of a component with JSON arguments.
func ExampleCall() {
	wasm, err := os.ReadFile("../guests/out/toolrun-go.wasm")
	if err != nil {
		panic(err)
	}
	cache, err := os.MkdirTemp("", "capsule-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(cache)
	out, err := capsule.Call(context.Background(), wasm, "murmur:tool/run@0.2.0#run", capsule.CallOptions{
		Args:     []byte(`[{"data": "hello, world", "log-path": null}]`),
		CacheDir: cache,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(out))
	// Output:
	// {"status":"passed","summary":"echo: hello, world","data":"dlrow ,olleh","data-path":null,"truncated":false,"metadata":[["len","12"]],"attachments":[]}
}

// A component reaches what its grants give it and nothing else: here one
// host directory, mounted as /data, and the host's stdout.
func ExampleCall_grants() {
	wasm, err := os.ReadFile("../guests/out/wasitest-go.wasm")
	if err != nil {
		panic(err)
	}
	data, err := os.MkdirTemp("", "capsule-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(data)
	if err := os.WriteFile(filepath.Join(data, "in.txt"), []byte("hello"), 0o644); err != nil {
		panic(err)
	}
	// Never grant the directory that holds the compilation cache: the
	// host runs what it finds there.
	cache, err := os.MkdirTemp("", "capsule-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(cache)
	_, err = capsule.Call(context.Background(), wasm, "murmur:tool/run@0.2.0#run", capsule.CallOptions{
		Args: []byte(`[{"data": "copy /data/in.txt /data/out.txt", "log-path": null}]`),
		Grants: wasip2.Grants{
			Dirs:   []wasip2.DirGrant{{Host: data, Guest: "/data"}},
			Stdout: wasip2.Output{W: os.Stdout},
		},
		CacheDir: cache,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	copied, err := os.ReadFile(filepath.Join(data, "out.txt"))
	fmt.Println(string(copied), err)
	// Output:
	// copied=5 err=<nil>
	// hello <nil>
}

// Install fetches what a capsule declares and pins it in murmur.lock, all
// or none: an artifact no registry has leaves the lock as it was, while
// the packages that did install stay in the store.
func ExampleInstall() {
	dir, err := os.MkdirTemp("", "capsule-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	manifest := filepath.Join(dir, "murmur.yaml")
	yaml := agentYAML + "  - name: word-count\n    version: \"0.1.0\"\n    runtime: tool\n"
	if err := os.WriteFile(manifest, []byte(yaml), 0o644); err != nil {
		panic(err)
	}
	err = capsule.Install(context.Background(), capsule.InstallOptions{Manifest: manifest, Home: filepath.Join(dir, "home")})
	var e *capsule.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, err)
	}
	_, err = os.Stat(filepath.Join(dir, "murmur.lock"))
	fmt.Println("murmur.lock written:", !errors.Is(err, fs.ErrNotExist))
	// Output:
	// E-REG-001 installing word-count@0.1.0: artifact word-count@0.1.0 not found in registry
	// murmur.lock written: false
}
