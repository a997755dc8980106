package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Dispatcher runs one tool call the way the loop does (session.md §2.4):
// input is the call's JSON object, compact with sorted keys; text is the
// result envelope's text, isError its is_error.
type Dispatcher interface {
	Call(ctx context.Context, name, input string) (text string, isError bool)
}

// Tool is one inventory entry the server offers.
type Tool struct {
	Name, Description string
	// InputSchema is a JSON Schema object; nil or a non-object schema is
	// offered as {"type":"object"}.
	InputSchema json.RawMessage
	// Skill offers the entry as a prompt as well: a skill's text is
	// guidance, which MCP clients take from a prompt at the user's
	// request, as the model takes it from the tool.
	Skill bool
}

// Options are what a server offers and where its calls go.
type Options struct {
	// Name and Version are the server's implementation, as clients show
	// it: the capsule's.
	Name, Version string
	Tools         []Tool
	Dispatcher    Dispatcher
	// Log receives diagnostics; nil discards them.
	Log *slog.Logger
}

func (o Options) check() error {
	if o.Name == "" || o.Dispatcher == nil {
		return errors.New("an MCP server needs a name and a Dispatcher")
	}
	return nil
}

func (o Options) log() *slog.Logger {
	if o.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return o.Log
}

// caller hands calls to the dispatcher one at a time, each under the
// serve's context as well as its request's, so stopping the server
// stops a tool a client is waiting on.
type caller struct {
	ctx  context.Context
	d    Dispatcher
	log  *slog.Logger
	turn chan struct{}
	// running is the call that has the turn, for the log of one that
	// waits.
	mu      sync.Mutex
	running string
}

// call dispatches one call. A call whose request ended while it waited
// for its turn is answered without running.
func (c *caller) call(reqCtx context.Context, name string, args json.RawMessage) (string, bool) {
	input, err := CanonicalInput(args)
	if err != nil {
		return fmt.Sprintf("tool '%s': arguments are not a JSON object: %v", name, err), true
	}
	acquired := false
	select {
	case c.turn <- struct{}{}:
		acquired = true
	default:
		c.mu.Lock()
		running := c.running
		c.mu.Unlock()
		c.log.Debug("a tool call waits for the one running", "tool", name, "running", running)
		select {
		case c.turn <- struct{}{}:
			acquired = true
		case <-reqCtx.Done():
		case <-c.ctx.Done():
		}
	}
	// A call whose client gave up, or whose server stopped, while it
	// waited is not run, even if its turn came at the same moment.
	if err := errors.Join(reqCtx.Err(), c.ctx.Err()); err != nil {
		if acquired {
			<-c.turn
		}
		c.log.Debug("a tool call was not run: it ended while it waited", "tool", name, "err", err)
		return fmt.Sprintf("tool '%s' was not run: its request or the server ended first (%v)", name, err), true
	}
	defer func() { <-c.turn }()
	c.mu.Lock()
	c.running = name
	c.mu.Unlock()
	callCtx, cancel := context.WithCancel(c.ctx)
	defer cancel()
	defer context.AfterFunc(reqCtx, cancel)()
	return c.d.Call(callCtx, name, input)
}

// newServer is the SDK server offering o's tools (and its skills as
// prompts), its calls made under ctx.
func newServer(ctx context.Context, o Options) (*sdk.Server, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	c := &caller{ctx: ctx, d: o.Dispatcher, log: o.log(), turn: make(chan struct{}, 1)}
	s := sdk.NewServer(&sdk.Implementation{Name: o.Name, Version: o.Version}, &sdk.ServerOptions{Logger: o.log()})
	for _, t := range o.Tools {
		s.AddTool(&sdk.Tool{Name: t.Name, Description: t.Description, InputSchema: objectSchema(t.InputSchema)},
			func(reqCtx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				text, isError := c.call(reqCtx, t.Name, req.Params.Arguments)
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}, IsError: isError}, nil
			})
		if t.Skill {
			s.AddPrompt(&sdk.Prompt{Name: t.Name, Description: t.Description},
				func(reqCtx context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
					if len(req.Params.Arguments) > 0 {
						return nil, fmt.Errorf("skill '%s' takes no arguments", t.Name)
					}
					text, isError := c.call(reqCtx, t.Name, nil)
					if isError {
						return nil, errors.New(text)
					}
					return &sdk.GetPromptResult{Description: t.Description,
						Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: text}}}}, nil
				})
		}
	}
	return s, nil
}
