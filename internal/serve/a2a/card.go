package a2a

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// CardInfo is what the agent cards say about the capsule.
type CardInfo struct {
	Name, Version, Description string
	// Tools are the LLM-visible tool and skill artifacts; each becomes a
	// skill on the public card.
	Tools []string
	// Shell and Network report non-empty shell.allow and network.allow
	// (Murmur's card).
	Shell, Network bool
}

const bearerScheme a2a.SecuritySchemeName = "bearer"

// publicCard is the A2A card: every binding on base, streaming, no push
// notifications, a bearer scheme when a token is required.
func publicCard(info CardInfo, base string, token bool) *a2a.AgentCard {
	desc := info.Description
	if desc == "" {
		desc = fmt.Sprintf("Murmur agent capsule %s v%s", info.Name, info.Version)
	}
	skills := []a2a.AgentSkill{}
	for _, t := range info.Tools {
		skills = append(skills, a2a.AgentSkill{ID: t, Name: t, Description: "the capsule's " + t + " tool", Tags: []string{"tool"}})
	}
	if len(skills) == 0 {
		skills = append(skills, a2a.AgentSkill{ID: "task", Name: "task", Description: desc, Tags: []string{"agent"}})
	}
	card := &a2a.AgentCard{
		Name: info.Name, Version: info.Version, Description: desc,
		SupportedInterfaces: []*a2a.AgentInterface{
			{URL: base, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.Version},
			{URL: base, ProtocolBinding: a2a.TransportProtocolHTTPJSON, ProtocolVersion: a2a.Version},
			{URL: base, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2av0.Version},
		},
		Capabilities:       a2a.AgentCapabilities{Streaming: true},
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
		Skills:             skills,
	}
	if token {
		card.SecuritySchemes = a2a.NamedSecuritySchemes{bearerScheme: a2a.HTTPAuthSecurityScheme{Scheme: "Bearer",
			Description: "the token given to the capsule in MURMUR_A2A_TOKEN"}}
		card.SecurityRequirements = a2a.SecurityRequirementsOptions{{bearerScheme: {}}}
	}
	return card
}

// publicCardJSON serialises the card as the union of the v1.0 and v0.3
// shapes, so clients of either version accept it.
func publicCardJSON(ctx context.Context, card *a2a.AgentCard) ([]byte, error) {
	p, ok := a2av0.NewStaticAgentCardProducer(card).(a2asrv.AgentCardJSONProducer)
	if !ok {
		return json.Marshal(card)
	}
	b, err := p.CardJSON(ctx)
	if err != nil || len(card.SecuritySchemes) == 0 {
		return b, err
	}
	return unionSchemes(b, card.SecuritySchemes)
}

// unionSchemes gives each security scheme of the union card both shapes:
// a2a-go's producer writes only v0.3's {"type":"http",…}, which a v1.0
// client (a2a-go's own resolver among them) refuses, so it could not
// reach a capsule that needs a token. Each shape's reader ignores the
// other's keys.
func unionSchemes(cardJSON []byte, schemes a2a.NamedSecuritySchemes) ([]byte, error) {
	var card map[string]json.RawMessage
	if err := json.Unmarshal(cardJSON, &card); err != nil {
		return nil, err
	}
	v1, err := json.Marshal(schemes)
	if err != nil {
		return nil, err
	}
	var old, add map[string]map[string]json.RawMessage
	if err := json.Unmarshal(card["securitySchemes"], &old); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(v1, &add); err != nil {
		return nil, err
	}
	for name, keys := range add {
		if old[name] == nil {
			old[name] = map[string]json.RawMessage{}
		}
		maps.Copy(old[name], keys)
	}
	if card["securitySchemes"], err = json.Marshal(old); err != nil {
		return nil, err
	}
	return json.MarshalIndent(card, "", "  ")
}

// murmurCard is Murmur's own card (a2a-cli.md §2.2).
func murmurCard(info CardInfo, url string) ([]byte, error) {
	tools := info.Tools
	if tools == nil {
		tools = []string{}
	}
	return json.Marshal(map[string]any{
		"name": info.Name, "version": info.Version, "url": url,
		"capabilities": map[string]any{"tools": tools, "shell": info.Shell, "network": info.Network, "streaming": true},
	})
}

// cardSource serves the public card with interface URLs on the host the
// client used, so a client on another machine of a widely bound capsule
// is not sent to its own localhost. The card for the bind address is
// built once; another host's is built per request, never cached, since
// the Host header is the client's to choose.
type cardSource struct {
	info  CardInfo
	token bool
	host  string // the bound base's host:port
	path  string // the base's path ("" for mur run, /NAME on a gateway)
	card  []byte
}

func newCardSource(ctx context.Context, info CardInfo, base string, token bool) (cardSource, error) {
	card, err := publicCardJSON(ctx, publicCard(info, base, token))
	if err != nil {
		return cardSource{}, fmt.Errorf("building the agent card: %w", err)
	}
	host, path, _ := strings.Cut(strings.TrimPrefix(base, "http://"), "/")
	if path != "" {
		path = "/" + path
	}
	return cardSource{info: info, token: token, host: host, path: path, card: card}, nil
}

func (c cardSource) forHost(ctx context.Context, host string) ([]byte, error) {
	if host == "" || host == c.host || !validHost(host) {
		return c.card, nil
	}
	return publicCardJSON(ctx, publicCard(c.info, "http://"+host+c.path, c.token))
}

// validHost accepts a Host header that is a host or host:port made of
// name, IPv4 or bracketed IPv6 characters, so nothing else reaches a URL.
func validHost(h string) bool {
	if len(h) > 255 {
		return false
	}
	for _, r := range h {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune(".-:[]_", r):
		default:
			return false
		}
	}
	_, err := url.Parse("http://" + h)
	return err == nil
}
