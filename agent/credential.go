package agent

import "github.com/mur-go/mur/tools"

// KindCredentialRejected (beyond Murmur 0.2.0): the provider refused the
// key (HTTP 401 or 403, reported by the driver as error_class
// credential_rejected). It has its own code because a retry cannot help
// and the fix is the operator's: a wrong or expired inference.api_key.
const KindCredentialRejected Kind = KindIO + 1

// CodeCredentialRejected is Murmur 0.10's code for it (session.md §13).
const CodeCredentialRejected = "E-RUN-027"

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
