package github

import (
	"fmt"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
)

// ParseRef reads a release-source reference the way Murmur does, before
// anything is asked of GitHub: a bare name is DefaultRepo's latest release
// (tag ""), github:OWNER/REPO@TAG that release; any other prefix, or a
// github: ref missing a part, is refused.
func ParseRef(ref string) (repo, tag string, err error) {
	bad := func(msg string) error {
		return &diag.Error{Code: artifact.CodeIO, Msg: msg, Hint: "for example: mur install github:murmur-nexus/default-artifacts@v0.1.1, or a bare name"}
	}
	if ref == "" {
		return "", "", bad("artifact reference cannot be empty")
	}
	prefix, rest, ok := strings.Cut(ref, ":")
	if !ok {
		return DefaultRepo, "", nil
	}
	if prefix != "github" {
		return "", "", bad(fmt.Sprintf("unsupported artifact source prefix '%s'", prefix))
	}
	repo, tag, _ = strings.Cut(rest, "@")
	owner, name, _ := strings.Cut(repo, "/")
	if strings.TrimSpace(owner) == "" || strings.TrimSpace(name) == "" || strings.TrimSpace(tag) == "" {
		return "", "", bad(fmt.Sprintf("invalid github artifact reference '%s' (expected github:<owner>/<repo>@<tag>)", ref))
	}
	return repo, tag, nil
}
