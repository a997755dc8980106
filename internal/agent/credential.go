package agent

import (
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/tools"
)

// CodeCredentialRejected is Murmur 0.10's code for it (session.md §13).
const CodeCredentialRejected diag.Code = "E-RUN-027"

// credentialRejected reports a driver answer classified as a credential
// rejection; the first error_class tuple wins (§1.4).
func credentialRejected(res tools.ToolResult) bool {
	for _, kv := range res.Metadata {
		if kv.Key == "error_class" {
			return kv.Value == "credential_rejected"
		}
	}
	return false
}
