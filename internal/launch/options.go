package launch

import (
	"io"
	"log/slog"
	"os"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/resources"
	"github.com/mur-go/mur/internal/sandbox"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/store/install"
)

// Options are what launch starts a staged capsule's guests with: a
// script capsule's run, an agent capsule's driver and tools.
type Options struct {
	// Staged is the staged capsule as what starts its guests sees it.
	Staged stage.GuestView
	// ComponentPath is the capsule's component (see FindComponent),
	// compiled here unless staging already did (Staged.Component).
	ComponentPath string
	// Engine compiles the capsule and any artifact pulled at run time. It
	// must be the engine staging compiled the tools with.
	Engine *component.Engine
	// GuestIO is what the guests read of the host and where their output
	// goes. Of the environment only env.allow names and the subprocess
	// baseline are ever read.
	GuestIO
	// Stores are searched, in order, by manage.pull (project store, then
	// global store; see Stores). Empty refuses runtime pulls.
	Stores []install.Source
	// Trampoline is the binary native tools are started through so that
	// capabilities.resources applies as hard rlimits: one whose main
	// hands sandbox.ExecMode to sandbox.Main (the mur binary itself). ""
	// refuses every native tool rather than run one unlimited.
	Trampoline string
	// Resources are the session's cgroup scope and workdir guard
	// (resources.Start), which every shell command and native tool is
	// started under; nil starts them under neither.
	Resources *resources.Bounds
	// CapsuleURL is the served agent capsule's URL (localhost:PORT), its
	// guests' MURMUR_CAPSULE_URL; "" (a script capsule, which serves
	// nothing) leaves the variable out.
	CapsuleURL string
	// Traceparent is the W3C trace context of the span a script
	// capsule's run is (the session's telemetry): its
	// murmur:message/send calls carry it, so the peers' tasks are that
	// span's children. "" (no telemetry) sends a span of TRACEPARENT's
	// trace, or of a new one.
	Traceparent string
}

// GuestIO is what a session's guests read of the host and where their
// output goes, with the runtime's diagnostics about them: the same for
// the capsule's store, its tools and driver, and its hooks.
type GuestIO struct {
	// Getenv reads the host environment as the manifest saw it (process
	// env over .env: manifest.File.LookupEnv); nil means os.LookupEnv.
	Getenv func(string) (string, bool)
	// Stdout and Stderr receive the guests' output; nil discards.
	Stdout, Stderr io.Writer
	// Log receives diagnostics; nil discards them.
	Log *slog.Logger
}

// WithDefaults is g with what the caller left out filled in.
func (g GuestIO) WithDefaults() GuestIO {
	if g.Getenv == nil {
		g.Getenv = os.LookupEnv
	}
	if g.Stdout == nil {
		g.Stdout = io.Discard
	}
	if g.Stderr == nil {
		g.Stderr = io.Discard
	}
	if g.Log == nil {
		g.Log = slog.New(slog.DiscardHandler)
	}
	return g
}

// withDefaults is o with its GuestIO filled in.
func (o Options) withDefaults() Options {
	o.GuestIO = o.GuestIO.WithDefaults()
	return o
}

// trampoline is how a shell command or native tool of the session
// starts: Options.Trampoline with limits and plan, the session's egress,
// scope and workdir guard.
func (o *Options) trampoline(limits sandbox.Rlimits, plan *sandbox.Plan, egress *sandbox.Egress) *sandbox.Trampoline {
	t := &sandbox.Trampoline{Self: o.Trampoline, Limits: limits, Plan: plan, Egress: egress}
	if o.Resources != nil {
		t.Cgroup, t.Guard = o.Resources.Cgroup, o.Resources.Guard
	}
	return t
}

// guestLimits is l with every unset field at Murmur's default: no guest
// call ever runs without a deadline or a memory cap (spec decision 4),
// even if a caller forgot to fill one in.
func guestLimits(l component.Limits) component.Limits {
	d := stage.DefaultToolLimits()
	if l.Deadline <= 0 {
		l.Deadline = d.Deadline
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
