package component

import "github.com/mur-go/mur/engine/component/internal/plan"
import "github.com/tetratelabs/wazero/api"

// wazero's ExportedFunction makes a new call engine each time, with its
// own stack (about 80 KB here, grown again by the first deep call), so a
// store looks each site's functions up once. They belong to the core
// instances: a reused store's instances bring the ones their previous
// store made (store_reuse.go), and every site keeps calling through its
// own function exactly as within one store. Sharing one function between
// two sites is never done, since a call engine must not be re-entered and
// one core function may serve two sites of a hostile component at once
// (an export that is also the realloc its own results are lowered with).

// siteRole names which of a site's functions a cached one is.
type siteRole uint8

const (
	liftedCore siteRole = iota
	liftedPost
	liftedRealloc
	loweredRealloc
)

// siteKey is one site's function: the lifted function's id or the
// lowered host function's index, and the role.
type siteKey struct {
	role siteRole
	idx  int
}

// siteFuncs caches api.Functions by site.
type siteFuncs map[siteKey]api.Function

// siteFunc is the function it names for the site key, looked up once per
// set of core instances.
func (s *Store) siteFunc(key siteKey, it plan.CoreItem) (api.Function, error) {
	if f, ok := s.funcs[key]; ok {
		return f, nil
	}
	f, err := s.coreFunc(it)
	if err != nil {
		return nil, err
	}
	if s.funcs == nil {
		s.funcs = siteFuncs{}
	}
	s.funcs[key] = f
	return f, nil
}
