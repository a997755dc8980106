package hooks

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/stage"
)

// Runtime is one session's hooks. It implements agent.Hooks; the loop
// calls it from one goroutine, async workers run beside it.
type Runtime struct {
	opts      Options
	s         stage.HookView
	linker    *component.Linker
	contracts map[Version]*contract
	inference *inferenceHost
	blocking  []*instance
	async     []*worker
	started   time.Time

	mu     sync.Mutex
	faults []agent.HookFault
	totals agent.SessionEndEvent
	closed bool
}

var _ agent.Hooks = (*Runtime)(nil)

// New instantiates every staged hook of opts.Staged, blocking and async
// alike, each once for the whole session. A hook that cannot be
// instantiated, exports no hosted lifecycle version or lacks a required
// function fails the session: every failure is E-RUN-001, marked with its
// Kind when it is a hook's.
func New(ctx context.Context, opts Options) (*Runtime, error) {
	if opts.Staged.Capsule == nil {
		return nil, diag.New(CodeSetup, "hooks.New: Options.Staged is required").WithHint(logHint)
	}
	o := opts.withDefaults()
	r, err := newRuntime(o)
	if err != nil {
		return nil, diag.Wrap(CodeSetup, err, "%v", err).WithHint(logHint)
	}
	for _, h := range r.specs(false) {
		in, err := r.instantiate(ctx, h, requiredFns[:], optionalFns[:])
		if err != nil {
			r.Close(ctx)
			return nil, err
		}
		if h.async {
			r.async = append(r.async, r.startWorker(in))
		} else {
			r.blocking = append(r.blocking, in)
		}
	}
	return r, nil
}

// newRuntime builds the linker every hook of the session instantiates
// against: WASI 0.2 (wasi:http behind each store's own rules, sockets
// refused) and run-inference under both hosted names.
func newRuntime(o Options) (*Runtime, error) {
	r := &Runtime{opts: o, s: o.Staged, linker: component.NewLinker(), started: time.Now(),
		contracts: map[Version]*contract{}}
	for _, v := range hostedVersions {
		r.contracts[v] = newContract(v)
	}
	if err := wasip2.Register(r.linker, func(s *component.Store) *wasip2.Ctx {
		if d, ok := s.Data.(*hookStore); ok {
			return d.wasi
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("linking the hook host: %w", err)
	}
	r.inference = newInferenceHost(r)
	if err := r.inference.register(r.linker); err != nil {
		return nil, fmt.Errorf("linking the hook host: %w", err)
	}
	return r, nil
}

// specs lists the staged WASM hooks in manifest order with their session
// grants (onStage: the on-stage sandbox instead).
func (r *Runtime) specs(onStage bool) []*hookSpec {
	var out []*hookSpec
	for _, a := range r.s.Artifacts {
		if a.Role != stage.RoleHook || a.Kind != stage.KindWasm || a.Hook == nil {
			continue
		}
		h := &hookSpec{name: a.Name, version: a.Version, binding: a.Hook.Binding,
			async: a.Hook.ExecutionMode == "async", blockOverflow: a.Ref != nil && a.Ref.OnOverflow == "block",
			comp: a.Component, limits: hookLimits(a.Grants.Limits)}
		preopen := a.Grants.Preopen
		if onStage && h.binding == "" && a.Grants.Scope != "" {
			// Staging placed an unbound hook's scope in the accessible
			// workdir; at on-stage its root is the session workdir.
			preopen, h.grantErr = r.stageScope(a.Grants.Scope)
		}
		h.grants = r.grants(h, preopen, a.Grants.Network, r.env(onStage))
		out = append(out, h)
	}
	return out
}

// stageScope creates <session workdir>/<scope> inside a Root (no link
// followed); failing to makes the hook fail to instantiate.
func (r *Runtime) stageScope(scope string) (string, error) {
	root, err := os.OpenRoot(r.s.SessionDir)
	if err != nil {
		return "", err
	}
	defer root.Close()
	rel := filepath.Clean(filepath.FromSlash(scope))
	if err := root.MkdirAll(rel, 0o755); err != nil {
		return "", fmt.Errorf("failed to create granted filesystem scope '%s': %w", scope, err)
	}
	return filepath.Join(r.s.SessionDir, rel), nil
}

// grants are a hook's sandbox (wit.md §6.7): no host environment, only
// the injected MURMUR_* pairs; its preopen only when the operator granted
// a scope; wasi:http only within its own network.allow.
func (r *Runtime) grants(h *hookSpec, preopen string, net wasip2.NetPolicy, env [][2]string) wasip2.Grants {
	var dirs []wasip2.DirGrant
	if preopen != "" {
		dirs = []wasip2.DirGrant{{Host: preopen, Guest: ".", Hide: r.s.HiddenUnder(preopen)}}
	}
	return wasip2.Grants{Dirs: dirs, Env: env, Args: []string{h.name},
		Stdout: wasip2.Output{W: r.opts.Stdout}, Stderr: wasip2.Output{W: r.opts.Stderr},
		Net: net, Log: r.opts.Log}
}

// env is what a hook sees of the environment, in the spec's order and
// only when set; on-stage hooks get MURMUR_FORMATION_ID alone.
func (r *Runtime) env(onStage bool) [][2]string {
	names := []string{"MURMUR_OTEL_ENDPOINT", "MURMUR_FORMATION_ID", "MURMUR_EVAL_CONFIG", "MURMUR_CASE_ID", "MURMUR_DATASET_ID"}
	if onStage {
		names = []string{"MURMUR_FORMATION_ID"}
	}
	var out [][2]string
	for _, n := range names {
		if v, ok := r.opts.Getenv(n); ok && v != "" {
			out = append(out, [2]string{n, v})
		}
	}
	return out
}

// hookLimits fills what staging left unset, so no hook call ever runs
// without a deadline or a memory cap.
func hookLimits(l component.Limits) component.Limits {
	d := stage.DefaultToolLimits()
	if l.Deadline <= 0 {
		l.Deadline = policy.DefaultHookDeadlineSecs * time.Second
	}
	if l.MaxMemoryBytes == 0 {
		l.MaxMemoryBytes = d.MaxMemoryBytes
	}
	if l.MaxTableElements == 0 {
		l.MaxTableElements = d.MaxTableElements
	}
	if l.MaxInstances == 0 {
		l.MaxInstances = d.MaxInstances
	}
	return l
}

// logHook appends one line to logs/hook-<name>.log (wit.md §6.9).
func (r *Runtime) logHook(name, line string) {
	path := filepath.Join(r.s.LogsDir, "hook-"+name+".log")
	if err := r.s.WriteSessionFile(path, []byte(line+"\n"), os.O_CREATE|os.O_APPEND); err != nil {
		r.opts.Log.Warn("hook log write failed", "hook", name, "err", err.Error())
	}
}

// bootstrap appends one line to logs/bootstrap.log.
func (r *Runtime) bootstrap(line string) {
	if err := r.s.AppendBootstrap(line); err != nil {
		r.opts.Log.Warn("bootstrap log write failed", "err", err.Error())
	}
}

func (r *Runtime) fault(hook, event, arm string) {
	r.mu.Lock()
	r.faults = append(r.faults, agent.HookFault{Hook: hook, Event: event, Arm: arm})
	r.mu.Unlock()
}

// unsupportedArm is the log line of a non-honoured output arm (§6.3).
func unsupportedArm(hook, arm, event string) string {
	return fmt.Sprintf("hook '%s' returned unsupported hook-output arm '%s' from '%s'; this event does not honor that arm, so the value was discarded", hook, arm, event)
}

// TakeFaults implements agent.Hooks.
func (r *Runtime) TakeFaults() []agent.HookFault {
	r.mu.Lock()
	defer r.mu.Unlock()
	f := r.faults
	r.faults = nil
	return f
}

// TakeInferences implements agent.Hooks.
func (r *Runtime) TakeInferences() []agent.HookInference { return r.inference.take() }
