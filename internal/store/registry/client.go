package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
)

// SHA256Header carries the recorded digest of a downloaded package.
const SHA256Header = "x-murmur-sha256"

// APIKeyEnv names the environment variable holding the bearer token.
const APIKeyEnv = "NEXUS_API_KEY"

// DefaultRemoteURL is where registry.default: remote points.
const DefaultRemoteURL = "http://localhost:7800"

// MaxDownloadBytes caps a downloaded package held in memory. Murmur reads
// remote bodies without a limit; mur-go stops at the per-entry ceiling,
// which no real package approaches.
const MaxDownloadBytes = artifact.DefaultMaxDecompressedBytes

// ProgressFunc reports transfer progress of one package (label is
// "<name>@<version>"); total is -1 when unknown.
type ProgressFunc func(label string, done, total int64)

// Client speaks the Nexus HTTP protocol (base path /v1).
type Client struct {
	base   string
	apiKey string
	http   *http.Client
	log    *slog.Logger
	// Progress, if set, is called as bodies are sent and received.
	Progress ProgressFunc
}

var _ Registry = (*Client)(nil)

// NewClient returns a client for the registry at base (trailing '/'
// trimmed). hc nil means a client with Murmur's 30 s total timeout; log nil
// discards diagnostics.
func NewClient(base, apiKey string, hc *http.Client, log *slog.Logger) *Client {
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Client{base: strings.TrimRight(base, "/"), apiKey: apiKey, http: hc, log: log}
}

// Base is the registry URL.
func (c *Client) Base() string { return c.base }

// Publish uploads a package: POST /v1/artifacts?name=&version=&runtime=[&platform=].
func (c *Client) Publish(ctx context.Context, meta artifact.Meta, data []byte) (*Published, error) {
	if artifact.IsReservedVersion(meta.Version) {
		return nil, reservedError(meta.Version)
	}
	q := "name=" + meta.Name + "&version=" + meta.Version + "&runtime=" + string(meta.Runtime)
	for _, p := range meta.Platforms {
		q += "&platform=" + p.String()
	}
	body := io.Reader(bytes.NewReader(data))
	if c.Progress != nil {
		body = &progressReader{r: body, label: meta.ID(), total: int64(len(data)), fn: c.Progress}
	}
	resp, err := c.do(ctx, http.MethodPost, "/v1/artifacts?"+q, body, int64(len(data)))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	text := readErrorText(resp)
	switch resp.StatusCode {
	case http.StatusCreated:
		var out Published
		if err := json.Unmarshal([]byte(text), &out); err != nil || out.SHA256 == "" {
			return nil, c.protocolError(fmt.Sprintf("invalid publish response from %s: %s", c.base, text))
		}
		return &out, nil
	case http.StatusConflict:
		return nil, conflictError(meta.Name, meta.Version)
	case http.StatusUnprocessableEntity:
		if text == fmt.Sprintf("reserved artifact version '%s' is not allowed", meta.Version) {
			return nil, reservedError(meta.Version)
		}
		return nil, invalidInput(text)
	}
	return nil, c.protocolError(fmt.Sprintf("%s@%s publish failed with HTTP %d: %s", meta.Name, meta.Version, resp.StatusCode, text))
}

// Resolve downloads GET /v1/artifacts/{name}/{version}[?platform=]. The
// x-murmur-sha256 header is mandatory; the body is not verified here.
func (c *Client) Resolve(ctx context.Context, name, version string, p *artifact.Platform) (*Resolved, error) {
	path := "/v1/artifacts/" + name + "/" + version
	if p != nil {
		path += "?platform=" + p.String()
	}
	resp, err := c.do(ctx, http.MethodGet, path, nil, 0)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound:
		return nil, NotFoundError(name, version)
	default:
		return nil, c.protocolError(fmt.Sprintf("%s@%s download failed with HTTP %d: %s", name, version, resp.StatusCode, readErrorText(resp)))
	}
	sha := strings.TrimSpace(resp.Header.Get(SHA256Header))
	if sha == "" {
		return nil, invalidInput("registry response missing " + SHA256Header + " header")
	}
	var body io.Reader = io.LimitReader(resp.Body, MaxDownloadBytes+1)
	if c.Progress != nil {
		body = &progressReader{r: body, label: name + "@" + version, total: resp.ContentLength, fn: c.Progress}
	}
	data, err := io.ReadAll(body)
	if err != nil {
		return nil, c.transportError(err)
	}
	if int64(len(data)) > MaxDownloadBytes {
		return nil, invalidInput(fmt.Sprintf("%s@%s is larger than %d bytes", name, version, MaxDownloadBytes))
	}
	return &Resolved{Name: name, Version: version, Data: data, SHA256: sha,
		Meta: artifact.Meta{Name: name, Version: version, Runtime: artifact.Wasm, Platforms: []artifact.Platform{}, Tags: []string{}}}, nil
}

// List fetches the index GET /v1/artifacts.
func (c *Client) List(ctx context.Context) ([]artifact.Meta, error) {
	resp, err := c.do(ctx, http.MethodGet, "/v1/artifacts", nil, 0)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, c.protocolError(fmt.Sprintf("index request failed with HTTP %d: %s", resp.StatusCode, readErrorText(resp)))
	}
	var out []artifact.Meta
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<20)).Decode(&out); err != nil {
		return nil, c.protocolError(fmt.Sprintf("invalid index response from %s: %v", c.base, err))
	}
	return out, nil
}

// do sends one authenticated request and maps 401/403 and transport
// failures; other statuses are left to the caller.
func (c *Client) do(ctx context.Context, method, path string, body io.Reader, size int64) (*http.Response, error) {
	if _, err := url.Parse(c.base); err != nil || !strings.HasPrefix(c.base, "http://") && !strings.HasPrefix(c.base, "https://") {
		return nil, &diag.Error{Code: CodeIO, Err: ErrInvalidInput, Msg: fmt.Sprintf("invalid registry URL '%s'", c.base),
			Hint: "pass --registry http://host:port (or 'local' for the global store)"}
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return nil, c.transportError(err)
	}
	if body != nil {
		req.ContentLength = size
		req.Header.Set("Content-Type", "application/octet-stream")
	}
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, c.transportError(err)
	}
	c.log.Debug("registry request", "method", method, "url", c.base+path, "status", resp.StatusCode, "took", time.Since(start))
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		resp.Body.Close()
		return nil, &diag.Error{Code: CodeIO, Err: ErrAuth,
			Msg:  fmt.Sprintf("registry authentication failed for %s. Check NEXUS_API_KEY and try again.", c.base),
			Hint: "export NEXUS_API_KEY with the key the registry server was started with"}
	}
	return resp, nil
}

func (c *Client) transportError(err error) *diag.Error {
	return &diag.Error{Code: CodeIO, Err: err, Msg: fmt.Sprintf("registry request to %s failed: %v", c.base, err),
		Hint: "check that the registry is running and reachable (mur registry serve starts one), or use --registry local"}
}

func (c *Client) protocolError(msg string) *diag.Error {
	return &diag.Error{Code: CodeIO, Err: ErrProtocol, Msg: "registry error: " + msg}
}

// readErrorText extracts {"error": "..."} from a body, else the raw text,
// else "unknown registry error".
func readErrorText(resp *http.Response) string {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(b, &e) == nil && e.Error != "" {
		return e.Error
	}
	if s := strings.TrimSpace(string(b)); s != "" {
		return s
	}
	return "unknown registry error"
}

// progressReader reports bytes as they pass.
type progressReader struct {
	r           io.Reader
	label       string
	done, total int64
	fn          ProgressFunc
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.done += int64(n)
	p.fn(p.label, p.done, p.total)
	return n, err
}
