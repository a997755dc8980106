package launch

import (
	"fmt"
	"strings"

	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/host"
)

// checkRunExport finds murmur:capsule/run@0.1.0#run by its exact versioned
// name and nothing else (wit.md §2.1). A capsule built against the
// unversioned name, or another version, gets Murmur's missing-export text;
// the hint says what was found instead.
func checkRunExport(w *wit.World) error {
	var others []string
	for _, e := range w.Exports {
		if e.Kind != wit.ExternInstance {
			continue
		}
		if e.Name == host.InstanceCapsule {
			for _, f := range e.Exports {
				if f.Kind == wit.ExternFunc && f.Name == "run" {
					return checkRunType(f.Func)
				}
			}
			return missingExport("the component exports " + host.InstanceCapsule + " but no function run in it")
		}
		if base, _, _ := strings.Cut(e.Name, "@"); base == "murmur:capsule/run" {
			others = append(others, e.Name)
		}
	}
	switch {
	case len(others) == 1 && others[0] == "murmur:capsule/run":
		return missingExport("the component exports only the unversioned murmur:capsule/run, which is no longer bound; rebuild it against murmur:capsule@0.1.0")
	case len(others) > 0:
		return missingExport("the component exports " + strings.Join(others, ", ") + "; mur-go binds murmur:capsule/run@0.1.0 only")
	}
	return missingExport("")
}

// checkRunType insists on run: func() — no parameters, no result.
func checkRunType(f *wit.Func) error {
	if f != nil && len(f.Params) == 0 && f.Result == nil {
		return nil
	}
	return &diag.Error{Code: CodeRun,
		Msg:  fmt.Sprintf("failed to type-check capsule run export %s: it has type %s, want func()", host.CapsuleRunExport, wit.FuncString(f)),
		Hint: "rebuild the capsule against murmur:capsule@0.1.0 (run: func())"}
}
