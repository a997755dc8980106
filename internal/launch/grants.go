package launch

import (
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/stage"
)

// keyVar is where drivers written for Murmur look for the API key, and
// configVar their driver config.
const (
	keyVar    = "MURMUR_INFERENCE_API_KEY"
	configVar = "MURMUR_INFERENCE_DRIVER_CONFIG"
)

// identity is the runtime's MURMUR_* pairs a capsule's guests and shell
// commands see (session.md §1.5). MURMUR_CAPSULE_URL is the served
// capsule's URL, absent rather than empty where no port is bound (a
// script capsule). An agent capsule's driver and WASM tools also get the
// inference vars; a script capsule has none.
func identity(o *Options) [][2]string {
	s := o.Staged
	out := append(inferenceEnv(s.Capsule.Inference),
		[2]string{"MURMUR_CAPSULE_NAME", s.Capsule.Name},
		[2]string{"MURMUR_CAPSULE_VERSION", s.Capsule.Version},
		[2]string{"MURMUR_SESSION_ID", s.ID},
	)
	if o.CapsuleURL != "" {
		out = append(out, [2]string{"MURMUR_CAPSULE_URL", o.CapsuleURL})
	}
	return out
}

// inferenceEnv is the MURMUR_INFERENCE_* set, in §1.5's order; the key and
// the driver config only when the manifest sets them. The key is the
// placeholder (keyEnvValue): no guest gets the real one from here.
func inferenceEnv(inf *manifest.Inference) [][2]string {
	if inf == nil {
		return nil
	}
	driver, config := "", ""
	if inf.Driver != nil {
		driver, config = inf.Driver.Artifact, inf.Driver.Config
	}
	out := [][2]string{
		{"MURMUR_INFERENCE_TRANSPORT", inf.Transport},
		{"MURMUR_INFERENCE_ENDPOINT", inf.Endpoint},
		{"MURMUR_INFERENCE_MODEL", inf.Model},
		{"MURMUR_INFERENCE_DRIVER", driver},
	}
	if inf.HasAPIKey {
		out = append(out, [2]string{keyVar, keyEnvValue(inf, false)})
	}
	if config != "" {
		out = append(out, [2]string{configVar, config})
	}
	return out
}

// guestEnv is a WASM guest's whole environment: the env.allow set (minus
// credentials and strip_env), then the runtime's pairs, applied last so
// a manifest cannot shadow them by allowlisting the same name
// (security.md §8). Nothing else of the host environment gets through.
func guestEnv(getenv func(string) (string, bool), g stage.Grants, runtime [][2]string) [][2]string {
	env := policy.GuestEnv(getenv, g.EnvAllow, g.ShellStripEnv)
	out := make([][2]string, 0, len(env)+len(runtime))
	for _, kv := range env {
		if !shadowed(kv[0], runtime) {
			out = append(out, kv)
		}
	}
	return append(out, runtime...)
}

func shadowed(key string, runtime [][2]string) bool {
	for _, kv := range runtime {
		if kv[0] == key {
			return true
		}
	}
	return false
}

// preopen grants dir as the guest's "." with the runtime's own entries
// and what it trusts at the next run hidden under it (tools/, trace.jsonl,
// .murmur/, the manifest, .env, murmur.lock: stage.Workdir.HiddenUnder):
// nothing a guest can write is later executed or trusted by the host.
func preopen(w stage.Workdir, dir string) wasip2.DirGrant {
	return wasip2.DirGrant{Host: dir, Guest: ".", Hide: w.HiddenUnder(dir)}
}

// capsuleGrants are the capsule store's WASI grants: the whole accessible
// workdir as "." (the ceiling, never narrowed), the guest env, and
// wasi:http behind capabilities.network.allow.
func capsuleGrants(o *Options) wasip2.Grants {
	s := o.Staged
	return wasip2.Grants{
		Dirs:   []wasip2.DirGrant{preopen(s.Workdir, s.AccessibleDir)},
		Env:    guestEnv(o.Getenv, s.Ceiling, identity(o)),
		Args:   []string{s.Capsule.Name},
		Stdout: wasip2.Output{W: o.Stdout},
		Stderr: wasip2.Output{W: o.Stderr},
		Log:    o.Log,
		Net:    s.Ceiling.Network,
	}
}

// toolGrants are a WASM tool's own grants: its preopen (the accessible
// workdir or its filesystem.scope), the guest env and its network rules,
// already clamped to the ceiling by staging.
func toolGrants(o *Options, g stage.Grants, name string) wasip2.Grants {
	var dirs []wasip2.DirGrant
	if g.Preopen != "" {
		dirs = []wasip2.DirGrant{preopen(o.Staged.Workdir, g.Preopen)}
	}
	return wasip2.Grants{
		Dirs:   dirs,
		Env:    guestEnv(o.Getenv, g, identity(o)),
		Args:   []string{name},
		Stdout: wasip2.Output{W: o.Stdout},
		Stderr: wasip2.Output{W: o.Stderr},
		Log:    o.Log,
		Net:    g.Network,
	}
}
