//go:build !linux

package sandbox

import (
	"context"
	"errors"

	"github.com/mur-go/mur/internal/policy"
)

const isLinux = false

// probe has nothing to try: without Linux there is no kernel tier.
func probe(context.Context, string) policy.HostSupport { return policy.HostSupport{Probed: true} }

// probeChild is never started here.
func probeChild([]string) error { return errors.New("no kernel probes on this platform") }
