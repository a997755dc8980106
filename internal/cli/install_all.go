package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/base/manifestio"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/store/install"
	"github.com/mur-go/mur/internal/store/registry"
)

// installParallelism bounds concurrent downloads of a batch install.
const installParallelism = 4

// declared is one registry artifact the capsule manifest asks for.
type declared struct{ name, version string }

// all installs every registry artifact of the project's manifest, in
// parallel, then pins the successes in murmur.lock (also with -g: the lock
// belongs to the project). Failures are reported together and do not stop
// the others from being installed and pinned.
func (in *installer) all(ctx context.Context) error {
	wd, err := cwd()
	if err != nil {
		return err
	}
	root, err := projectRoot(wd)
	if err != nil {
		return err
	}
	want, err := capsuleArtifacts(filepath.Join(root, artifact.ManifestEntry))
	if err != nil {
		return err
	}
	if len(want) == 0 {
		fmt.Fprintln(in.stdout, "No artifacts in manifest.")
		return nil
	}
	dst, _, err := in.store(wd)
	if err != nil {
		return err
	}
	lockPath := filepath.Join(root, lockfile.FileName)
	lock, err := lockfile.ReadOrNew(lockPath)
	if err != nil {
		return err
	}
	src, target, err := in.source(wd)
	if err != nil {
		return err
	}
	f := &install.Fetcher{Sources: withBuiltins(install.Source{Name: target.String(), Resolver: src}), Lock: lock, Mode: install.Guard}
	results, errs := in.fetchAll(ctx, f, dst, want)
	var pins []lockfile.Entry
	for i, d := range want {
		if r := results[i]; r != nil {
			fmt.Fprintf(in.stdout, "Installed %s@%s → %s\n", d.name, d.version, r.path)
			pins = append(pins, r.pin)
		}
	}
	if len(pins) > 0 {
		if err := install.Pin(lockPath, lock, pins...); err != nil {
			return err
		}
		fmt.Fprintf(in.stdout, "installed %d %s into %s; pinned in %s\n", len(pins), plural(len(pins), "artifact", "artifacts"), dst.Root(), lockPath)
	}
	var failed []string
	for i, d := range want {
		if err := errs[i]; err != nil {
			if registryNotFound(err) {
				err = notFoundHint(err, target)
			}
			failed = append(failed, fmt.Sprintf("  %s@%s:\n    %s", d.name, d.version, strings.ReplaceAll(diag.Render(err), "\n", "\n    ")))
		}
	}
	if failed != nil {
		// The batch report is the command's output (a2a-cli.md §6.1): on
		// stdout, then exit 1 with nothing more said.
		fmt.Fprintf(in.stdout, "%d of %d %s failed to install:\n%s\n", len(failed), len(want), plural(len(want), "artifact", "artifacts"), strings.Join(failed, "\n"))
		return &reportedError{fmt.Errorf("%d of %d artifacts failed to install", len(failed), len(want))}
	}
	return nil
}

// fetchAll installs each artifact with bounded parallelism, showing which
// ones are in flight on a terminal. Results and errors are by index.
func (in *installer) fetchAll(ctx context.Context, f *install.Fetcher, dst *registry.Local, want []declared) ([]*installed, []error) {
	results, errs := make([]*installed, len(want)), make([]error, len(want))
	prog := in.newProgress()
	var mu sync.Mutex
	done := 0
	sem := make(chan struct{}, installParallelism)
	var wg sync.WaitGroup
	for i, d := range want {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			r, err := installArtifact(ctx, f, dst, d.name, d.version)
			mu.Lock()
			results[i], errs[i] = r, err
			done++
			prog.status(fmt.Sprintf("installing artifacts: %d/%d done (last: %s@%s)", done, len(want), d.name, d.version), true)
			mu.Unlock()
			in.log.Debug("install finished", "artifact", d.name+"@"+d.version, "err", err)
		}()
	}
	wg.Wait()
	prog.clear()
	return results, errs
}

// capsuleArtifacts reads the artifacts a capsule declares, skipping
// local-source entries and duplicates.
//
// This is a narrow reader of artifacts[]: name, version and source. The
// manifest package validates the whole capsule; install only needs these.
func capsuleArtifacts(path string) ([]declared, error) {
	data, err := manifestio.ReadFile(path)
	var big *manifestio.SizeError
	if errors.As(err, &big) {
		return nil, err
	}
	if err != nil {
		return nil, &diag.Error{Code: artifact.CodeIO, Err: err, Msg: "failed to load manifest: " + err.Error()}
	}
	fail := func(msg string) error {
		// The manifest package's positioned error is the form every
		// command prints; this reader's own text is the fallback.
		if _, _, perr := manifest.Parse(data, path, manifest.ParseOptions{Role: manifest.RoleCapsule}); perr != nil {
			return perr
		}
		return &diag.Error{Code: artifact.CodeIO, Msg: "failed to load manifest: " + msg,
			Hint: "fix " + path + "; each artifacts entry needs name and version (or source for a local skill)"}
	}
	var doc struct {
		Artifacts []struct {
			Name    string `yaml:"name"`
			Version string `yaml:"version"`
			Source  string `yaml:"source"`
		} `yaml:"artifacts"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fail(strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var out []declared
	seen := map[declared]bool{}
	for i, a := range doc.Artifacts {
		name, version := strings.TrimSpace(a.Name), strings.TrimSpace(a.Version)
		switch {
		case name == "":
			return nil, fail(fmt.Sprintf("murmur.yaml: invalid artifact declaration at index %d: missing required field 'name'", i))
		case strings.TrimSpace(a.Source) != "":
			continue
		case version == "":
			return nil, fail(fmt.Sprintf("murmur.yaml: invalid artifact declaration at index %d: missing required field 'version'", i))
		}
		d := declared{name, version}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out, nil
}

func registryNotFound(err error) bool {
	var e *diag.Error
	return errors.As(err, &e) && e.Code == registry.CodeNotFound
}
