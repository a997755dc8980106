package worker

import (
	"github.com/mur-go/mur/internal/format/manifest"
	server "github.com/mur-go/mur/internal/serve/a2a"
)

// cardInfo is what the gateway's cards say of the capsule: what mur run's
// say, from the manifest (the tools and skills it declares).
func cardInfo(c *manifest.Capsule) server.CardInfo {
	info := server.CardInfo{Name: c.Name, Version: c.Version, Shell: len(c.Capabilities.ShellAllow()) > 0}
	if c.Capabilities != nil && c.Capabilities.Network != nil {
		info.Network = len(c.Capabilities.Network.Allow) > 0
	}
	for _, a := range c.Artifacts {
		if a.Runtime == manifest.RuntimeTool || a.Runtime == manifest.RuntimeSkill {
			info.Tools = append(info.Tools, a.Name)
		}
	}
	return info
}
