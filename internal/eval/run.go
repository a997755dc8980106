package eval

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/session"
	"github.com/mur-go/mur/internal/stage"
)

// DefaultDataset is the dataset mur eval run reads when none is named,
// in the current directory.
const DefaultDataset = "eval.jsonl"

// The variables a case's hooks are given (wit.md's hook environment), as
// Murmur's eval run sets them.
const (
	envEvalConfig = "MURMUR_EVAL_CONFIG"
	envCaseID     = "MURMUR_CASE_ID"
	envDatasetID  = "MURMUR_DATASET_ID"
)

// Options describe one mur eval run.
type Options struct {
	// CapsuleDir is the directory of the capsule's murmur.yaml; "" is the
	// current directory.
	CapsuleDir string
	// Dataset is the dataset file; "" is DefaultDataset in the current
	// directory.
	Dataset string
	// Session is what every case's session.Run is given: the runtime's
	// settings, writers and callbacks. ManifestPath, Task and LookupEnv
	// are set per case, and the case's scoring observer is added to its
	// Observer. Warnings are passed on once each, not once per case.
	Session session.Options
	// OnStart is called once the capsule and the dataset are checked,
	// with the number of cases; OnCase as a case starts; OnResult when
	// it is scored; OnNote with anything the user should know of the run
	// as a whole. Each may be nil.
	OnStart  func(cases int)
	OnCase   func(Case)
	OnResult func(CaseResult)
	OnNote   func(string)
	// Now stamps the records; nil is time.Now.
	Now func() time.Time
}

// CaseResult is how a case went.
type CaseResult struct {
	Case Case
	// Result is pass or fail, or stage_failed for a case whose session
	// never started.
	Result string
	// SessionID and SessionDir are the case's session ("" when it never
	// started); Status how the session ended.
	SessionID, SessionDir string
	Status                session.Status
	// Scores are the dataset_run's, by name.
	Scores []NamedScore
	// Err is why the session failed or never started (nil when it
	// ended ok); WriteErr why eval.jsonl could not be written.
	Err, WriteErr error
}

// Report is a whole run: the cases in dataset order and the capsule's
// workdir, where their sessions are.
type Report struct {
	Workdir string
	Cases   []CaseResult
}

// Passed is how many cases passed.
func (r Report) Passed() int {
	n := 0
	for _, c := range r.Cases {
		if c.Result == Pass {
			n++
		}
	}
	return n
}

// plan is a checked run: the capsule, its cases and what each case's
// session gets.
type plan struct {
	o            Options
	manifestPath string
	capsule      *manifest.Capsule
	cases        []Case
	lookup       func(string) (string, bool)
	evalConfig   string
}

// Run runs the capsule at o.CapsuleDir once per case of the dataset, in
// order, each case a fresh session (session.Run, as mur run) whose
// task is the case's task file, scored by the manifest's scorers from
// what its agent loop reported, the records written to the session's
// eval.jsonl. Murmur's order: the manifest is read, then the dataset,
// then the capsule is checked (Check) and its murmur.lock read; a
// failure of any of these runs nothing. A case that fails is reported
// and the next one runs; a cancelled ctx stops the case it interrupts
// (its session is cancelled) and the run, with an error.
func Run(ctx context.Context, o Options) (Report, error) {
	p, err := prepare(o)
	if err != nil {
		return Report{}, err
	}
	rep := Report{Workdir: filepath.Join(filepath.Dir(p.manifestPath), "workdir")}
	call(o.OnStart, len(p.cases))
	for _, c := range p.cases {
		call(o.OnCase, c)
		r := p.runCase(ctx, c)
		if ctx.Err() != nil {
			return rep, fmt.Errorf("mur eval run stopped during case %s: %w", Printable(c.ID), context.Cause(ctx))
		}
		rep.Cases = append(rep.Cases, r)
		call(o.OnResult, r)
	}
	return rep, nil
}

func call[T any](f func(T), v T) {
	if f != nil {
		f(v)
	}
}

func prepare(o Options) (*plan, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	p := &plan{o: o, lookup: o.Session.LookupEnv}
	if p.lookup == nil {
		p.lookup = os.LookupEnv
	}
	once := onceEach(o.Session.OnWarning)
	p.o.Session.OnWarning, p.o.Session.OnSecurityWarning = once, onceEach(o.Session.OnSecurityWarning)
	dir, err := filepath.Abs(cmp.Or(o.CapsuleDir, "."))
	if err != nil {
		return nil, diag.Wrap(CodeIO, err, "failed to determine the capsule directory: %v", err)
	}
	p.manifestPath = filepath.Join(dir, manifest.FileName)
	f, warns, err := manifest.LoadWith(p.manifestPath, manifest.LoadOptions{Role: manifest.RoleCapsule, Env: p.lookup, EnvFileDir: dir})
	for _, w := range warns {
		once(w)
	}
	if err != nil {
		return nil, err
	}
	if f.Capsule == nil {
		return nil, diag.New(CodeInvalid, "%s is an artifact manifest, not a capsule manifest", p.manifestPath)
	}
	p.capsule = f.Capsule
	if p.cases, err = readDataset(o.Dataset); err != nil {
		return nil, err
	}
	if err := Check(f); err != nil {
		return nil, err
	}
	if _, err := stage.ReadLock(filepath.Join(dir, lockfile.FileName)); err != nil {
		return nil, err
	}
	cfg, err := json.Marshal(struct {
		DatasetID *string           `json:"dataset_id,omitempty"`
		Scorers   []manifest.Scorer `json:"scorers"`
	}{f.Capsule.Eval.DatasetID, f.Capsule.Eval.Scorers})
	if err != nil {
		return nil, diag.Wrap(CodeIO, err, "encoding %s: %v", envEvalConfig, err)
	}
	p.evalConfig = string(cfg)
	for _, a := range f.Capsule.Artifacts {
		if a.Name == "murmur-hook-eval" && o.OnNote != nil {
			o.OnNote("murmur-hook-eval is declared: mur-go scores each case itself, and its eval.jsonl replaces the one the hook writes")
		}
	}
	return p, nil
}

// readDataset reads the dataset the user named, or the default one.
func readDataset(path string) ([]Case, error) {
	missing := "dataset not found at " + path
	if path == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, diag.Wrap(CodeIO, err, "failed to determine the current directory: %v", err)
		}
		path = filepath.Join(wd, DefaultDataset)
		missing = "no dataset found. Expected ./eval.jsonl or specify with --dataset <path>"
	}
	data, err := readOwn(path, missing)
	if err != nil {
		if d := (*diag.Error)(nil); errors.As(err, &d) && d.Code == CodeNotFound {
			d.WithHint(`a dataset has one case per line: {"case_id": "greeting", "task_path": "tasks/greeting.md"}`)
		}
		return nil, err
	}
	cases, err := ParseDataset(path, data)
	if err != nil {
		return nil, err
	}
	if len(cases) == 0 {
		return nil, diag.New(CodeIO, "dataset is empty: %s", path).
			WithHint(`add one case per line: {"case_id": "greeting", "task_path": "tasks/greeting.md"}`)
	}
	return cases, nil
}

// onceEach passes each distinct warning on once: every case's session
// loads the same manifest and stages the same artifacts.
func onceEach(f func(manifest.Warning)) func(manifest.Warning) {
	seen := map[string]bool{}
	return func(w manifest.Warning) {
		if k := w.String(); f != nil && !seen[k] {
			seen[k] = true
			f(w)
		}
	}
}

// runCase runs and scores one case.
func (p *plan) runCase(ctx context.Context, c Case) CaseResult {
	r := CaseResult{Case: c, Result: StageFailed}
	so := p.o.Session
	task, err := readTask(c.TaskPath, so.MaxTaskBytes)
	if err != nil {
		r.Err = err
		return r
	}
	w := &watcher{}
	so.ManifestPath, so.Task, so.LookupEnv = p.manifestPath, task, p.caseEnv(c)
	so.Observer = observe.Tee(so.Observer, w)
	res, err := session.Run(ctx, so)
	r.Err, r.Status = err, res.Status
	if res.Session == nil {
		return r
	}
	r.SessionID, r.SessionDir = res.Session.ID, res.Session.SessionDir
	ev := p.capsule.Eval
	events, run := Score(ev.Scorers, w.observation(err == nil, string(res.Status)),
		uint64(p.o.Now().UnixMilli()), ev.DatasetID, &c.ID)
	r.Result, r.Scores = run.Overall, run.SortedScores()
	r.WriteErr = res.Session.ReplaceSessionFile(filepath.Join(res.Session.SessionDir, EvalFile), Encode(events, &run))
	return r
}

// caseEnv is the environment a case's session reads: the run's, with the
// hooks' eval variables those of the case (MURMUR_DATASET_ID unset
// without a dataset_id, whatever the run's environment holds).
func (p *plan) caseEnv(c Case) func(string) (string, bool) {
	set := map[string]*string{envEvalConfig: &p.evalConfig, envCaseID: &c.ID, envDatasetID: p.capsule.Eval.DatasetID}
	return func(name string) (string, bool) {
		if v, ok := set[name]; ok {
			if v == nil {
				return "", false
			}
			return *v, true
		}
		return p.lookup(name)
	}
}
