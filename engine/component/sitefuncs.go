package component

import (
	"github.com/tetratelabs/wazero/api"

	"github.com/mur-go/mur/engine/component/internal/plan"
	"github.com/mur-go/mur/engine/component/internal/storelife"
)

// A store looks each site's functions up once, and keeps them with its
// instances (storelife.SiteFuncs says why). These are the roles a site's
// functions play, the SiteKey's Role.
const (
	liftedCore uint8 = iota
	liftedPost
	liftedRealloc
	loweredRealloc
)

// siteFunc is the function it names for the site key, looked up once per
// set of core instances.
func (s *Store) siteFunc(key storelife.SiteKey, it plan.CoreItem) (api.Function, error) {
	if f, ok := s.inst.Funcs[key]; ok {
		return f, nil
	}
	f, err := s.coreFunc(it)
	if err != nil {
		return nil, err
	}
	if s.inst.Funcs == nil {
		s.inst.Funcs = storelife.SiteFuncs{}
	}
	s.inst.Funcs[key] = f
	return f, nil
}
