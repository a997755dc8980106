package a2a

import (
	"encoding/json"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
)

// The card of a capsule that needs a token is read by clients of both
// versions: the a2a-go v1.0 resolver decodes it as an a2a.AgentCard, a
// v0.3 client as the v0.3 shape; each finds the bearer scheme.
func TestTokenCardParsesInBothVersions(t *testing.T) {
	b, err := publicCardJSON(t.Context(), publicCard(CardInfo{Name: "agent", Version: "1.0.0"}, "http://127.0.0.1:1/agent", true))
	if err != nil {
		t.Fatal(err)
	}
	var v1 a2a.AgentCard
	if err := json.Unmarshal(b, &v1); err != nil {
		t.Fatalf("the v1.0 client cannot read the card: %v\n%s", err, b)
	}
	if s, ok := v1.SecuritySchemes[bearerScheme].(a2a.HTTPAuthSecurityScheme); !ok || s.Scheme != "Bearer" || len(v1.SecurityRequirements) != 1 {
		t.Errorf("the v1.0 card has schemes %+v, requirements %+v; want the bearer scheme required\n%s", v1.SecuritySchemes, v1.SecurityRequirements, b)
	}
	v0, err := a2av0.NewAgentCardParser()(b)
	if err != nil {
		t.Fatalf("the v0.3 parser cannot read the card: %v\n%s", err, b)
	}
	if _, ok := v0.SecuritySchemes[bearerScheme]; !ok || len(v0.SecurityRequirements) != 1 {
		t.Errorf("the v0.3 card has schemes %+v, requirements %+v; want the bearer scheme required\n%s", v0.SecuritySchemes, v0.SecurityRequirements, b)
	}
}
