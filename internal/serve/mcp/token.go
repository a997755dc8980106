package mcp

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"
)

// TokenEnv is the environment variable `mur mcp serve --http` takes its
// bearer token from.
const TokenEnv = "MURMUR_MCP_TOKEN"

// A token is one header value, which a person may also paste: at least
// minToken bytes (a guessable token would guard shell commands and
// native tools), at most maxToken.
const (
	minToken = 16
	maxToken = 1024
)

// NewToken is a fresh token: 32 random bytes in hex.
func NewToken() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// CheckToken refuses a token a client could not send in an
// Authorization header, or one too short to be a secret.
func CheckToken(token string) error {
	switch {
	case len(token) < minToken:
		return fmt.Errorf("the token has %d bytes; use at least %d random ones (e.g. openssl rand -hex 32)", len(token), minToken)
	case len(token) > maxToken:
		return fmt.Errorf("the token has %d bytes, more than the %d a header value may carry here", len(token), maxToken)
	case strings.IndexFunc(token, func(r rune) bool { return r > unicode.MaxASCII || !unicode.IsPrint(r) || r == ' ' }) >= 0:
		return fmt.Errorf("the token holds a space, a control or a non-ASCII character; a bearer token is printable ASCII")
	}
	return nil
}

// ReadTokenFile reads a token from path: the file's text without the
// surrounding whitespace. The file must be a regular one that only its
// owner may read or write, as a secret's file is.
func ReadTokenFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("reading the token file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("reading the token file: %w", err)
	}
	switch {
	case !fi.Mode().IsRegular():
		return "", fmt.Errorf("the token file %s is not a regular file", path)
	case fi.Mode().Perm()&0o077 != 0:
		return "", fmt.Errorf("the token file %s has mode %#o: others may read or change it; chmod 600 %s", path, fi.Mode().Perm(), path)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxToken+64))
	if err != nil {
		return "", fmt.Errorf("reading the token file: %w", err)
	}
	token := strings.TrimSpace(string(b))
	if err := CheckToken(token); err != nil {
		return "", fmt.Errorf("the token file %s: %w", path, err)
	}
	return token, nil
}
