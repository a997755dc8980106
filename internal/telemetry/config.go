package telemetry

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
)

// The OpenTelemetry environment variables mur reads, with the
// specification's meaning: a signal's own variable over the generic one,
// an empty value as unset.
const (
	EnvDisabled       = "OTEL_SDK_DISABLED"
	EnvTracesExporter = "OTEL_TRACES_EXPORTER"
	EnvEndpoint       = "OTEL_EXPORTER_OTLP_ENDPOINT"
	EnvTracesEndpoint = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
	EnvProtocol       = "OTEL_EXPORTER_OTLP_PROTOCOL"
	EnvTracesProtocol = "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
	EnvHeaders        = "OTEL_EXPORTER_OTLP_HEADERS"
	EnvTracesHeaders  = "OTEL_EXPORTER_OTLP_TRACES_HEADERS"
	EnvTimeout        = "OTEL_EXPORTER_OTLP_TIMEOUT"
	EnvTracesTimeout  = "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT"
	// EnvTraceparent is the caller's W3C trace context a run joins (the
	// variable `mur send` and script capsules read too).
	EnvTraceparent = "TRACEPARENT"
)

// The OTLP protocols mur speaks.
const (
	ProtocolHTTP = "http/protobuf"
	ProtocolGRPC = "grpc"
)

// FieldEndpoint is the manifest field that turns export on.
const FieldEndpoint = "observability.otel_endpoint"

// DefaultTimeout bounds one export when the environment does not say.
const DefaultTimeout = 10 * time.Second

// Codes. WarnTelemetry is mur-go's own: export was configured but not
// (wholly) done, or part of its configuration could not be used; the run
// itself is not affected.
const (
	WarnTelemetry = "W-RUN-002"
	// CodeEndpoint refuses an observability.otel_endpoint no collector
	// can be reached at.
	CodeEndpoint diag.Code = "E-MAN-003"
)

// Config is where a session's spans go. The zero Config exports nothing.
type Config struct {
	// Endpoint is the URL spans are sent to: for http/protobuf the URL
	// POSTed to; for grpc its host and port are dialled (https: with TLS).
	Endpoint string
	// Protocol is ProtocolHTTP or ProtocolGRPC.
	Protocol string
	// Headers go with every export; only an endpoint the environment
	// names gets the environment's headers.
	Headers map[string]string
	// Timeout bounds one export.
	Timeout time.Duration
	// From is what named the endpoint: FieldEndpoint or a variable.
	From string
	// Secrets are the header values the environment holds, whether or
	// not they are sent: the session's redactor keeps them out of its
	// files.
	Secrets []string
}

// Enabled reports whether spans are exported.
func (c Config) Enabled() bool { return c.Endpoint != "" }

// Source is what Resolve reads: the manifest's field and the environment
// the run sees (the process's over .env).
type Source struct {
	// Endpoint is observability.otel_endpoint (trimmed; "" when absent)
	// and File the manifest it is in.
	Endpoint, File string
	LookupEnv      func(string) (string, bool)
}

// Resolve decides where the session's spans go. The environment's
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT (the
// operator's) wins over the manifest's observability.otel_endpoint (the
// capsule author's), and only an endpoint the environment names is sent
// the environment's headers: a capsule cannot have the operator's
// collector credentials sent where its manifest points. The manifest's
// endpoint is OTLP/HTTP, as in Murmur, with /v1/traces appended to its
// path. OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none turn export
// off.
//
// A manifest endpoint no collector can be at is refused (CodeEndpoint);
// what cannot be used of the environment, or is overridden, is a
// warning.
func Resolve(src Source) (Config, []manifest.Warning, error) {
	lookup := func(k string) string {
		if src.LookupEnv == nil {
			return ""
		}
		v, _ := src.LookupEnv(k)
		return strings.TrimSpace(v)
	}
	var warns []manifest.Warning
	warn := func(file, path, hint, format string, args ...any) {
		warns = append(warns, manifest.Warning{Code: WarnTelemetry, File: file, Path: path, Msg: fmt.Sprintf(format, args...), Hint: hint})
	}
	cfg := Config{Timeout: DefaultTimeout}
	for _, name := range []string{EnvHeaders, EnvTracesHeaders} {
		cfg.Secrets = append(cfg.Secrets, ParseHeaders(lookup(name)).Secrets...)
	}
	var manifestURL *url.URL
	if src.Endpoint != "" {
		u, err := parseEndpoint(src.Endpoint)
		if err != nil {
			return Config{Secrets: cfg.Secrets}, nil, diag.New(CodeEndpoint, "invalid observability config for '%s': %v", FieldEndpoint, err).
				At(manifest.At(src.File, FieldEndpoint, 0, 0)).
				WithHint("give the OTLP/HTTP collector's base URL, like http://localhost:4318; headers go in OTEL_EXPORTER_OTLP_HEADERS")
		}
		manifestURL = u
	}
	if strings.EqualFold(lookup(EnvDisabled), "true") || lookup(EnvTracesExporter) == "none" {
		if manifestURL != nil {
			warn(src.File, FieldEndpoint, "unset "+EnvDisabled+" and "+EnvTracesExporter+" to export",
				"%s is set, but the environment turns OpenTelemetry export off (%s=%s, %s=%s): no spans are sent",
				FieldEndpoint, EnvDisabled, lookup(EnvDisabled), EnvTracesExporter, lookup(EnvTracesExporter))
		}
		return Config{Secrets: cfg.Secrets}, warns, nil
	}
	if d, name, ok := envTimeout(lookup); ok {
		cfg.Timeout = d
	} else if name != "" {
		warn(name, "", "give a whole number of milliseconds", "%s=%q is not a timeout in milliseconds; exports wait at most %s", name, lookup(name), DefaultTimeout)
	}
	if env, ok := resolveEnv(lookup, warn); ok {
		if manifestURL != nil {
			warn(src.File, FieldEndpoint, "leave one of them out to silence this",
				"%s %s is not used: %s names the collector", FieldEndpoint, display(manifestURL), env.From)
		}
		env.Timeout, env.Secrets = cfg.Timeout, cfg.Secrets
		return env, warns, nil
	}
	if manifestURL == nil {
		return Config{Secrets: cfg.Secrets}, warns, nil
	}
	if lookup(EnvHeaders) != "" || lookup(EnvTracesHeaders) != "" {
		warn(src.File, FieldEndpoint, "name the collector in "+EnvEndpoint+" to send it the headers",
			"the %s headers are not sent to %s %s: the environment's headers go only to an endpoint the environment names",
			EnvHeaders, FieldEndpoint, display(manifestURL))
	}
	cfg.Endpoint, cfg.Protocol, cfg.From = tracesURL(manifestURL, false), ProtocolHTTP, FieldEndpoint
	return cfg, warns, nil
}

// resolveEnv is the export the environment configures, if it names an
// endpoint mur can use.
func resolveEnv(lookup func(string) string, warn func(file, path, hint, format string, args ...any)) (Config, bool) {
	name, signal := EnvTracesEndpoint, true
	raw := lookup(name)
	if raw == "" {
		name, signal, raw = EnvEndpoint, false, lookup(EnvEndpoint)
	}
	if raw == "" {
		return Config{}, false
	}
	u, err := parseEndpoint(raw)
	if err != nil {
		warn(name, "", "give the collector's URL, like http://localhost:4318", "%s: %v; no spans are sent there", name, err)
		return Config{}, false
	}
	protoVar, proto := EnvTracesProtocol, lookup(EnvTracesProtocol)
	if proto == "" {
		protoVar, proto = EnvProtocol, lookup(EnvProtocol)
	}
	switch proto {
	case "", ProtocolHTTP:
		proto = ProtocolHTTP
	case ProtocolGRPC:
	case "http/json":
		// Every OTLP/HTTP receiver takes protobuf on the same path.
		warn(protoVar, "", "set it to http/protobuf or grpc", "%s=http/json is not supported; spans are sent as http/protobuf", protoVar)
		proto = ProtocolHTTP
	default:
		warn(protoVar, "", "set it to http/protobuf or grpc", "%s=%q is not an OTLP protocol; no spans are sent to %s", protoVar, proto, display(u))
		return Config{}, false
	}
	endpoint := tracesURL(u, signal)
	if proto == ProtocolGRPC {
		if p := strings.TrimSuffix(u.Path, "/"); p != "" {
			warn(name, "", "leave the path out", "a gRPC collector is reached at %s; the path %s is not used", u.Host, p)
		}
		endpoint = u.Scheme + "://" + u.Host
	}
	hvar := EnvTracesHeaders
	h := ParseHeaders(lookup(hvar))
	if lookup(hvar) == "" {
		hvar = EnvHeaders
		h = ParseHeaders(lookup(hvar))
	}
	for _, p := range h.Problems {
		warn(hvar, "", "write it as key=value pairs separated by commas, values percent-encoded", "%s: %s; that pair is not sent", hvar, p)
	}
	return Config{Endpoint: endpoint, Protocol: proto, Headers: h.Pairs, From: name}, true
}

// envTimeout is the export timeout the environment sets; name is the
// variable that holds an unusable one ("" when none is set).
func envTimeout(lookup func(string) string) (d time.Duration, name string, ok bool) {
	name = EnvTracesTimeout
	v := lookup(name)
	if v == "" {
		name, v = EnvTimeout, lookup(EnvTimeout)
	}
	if v == "" {
		return 0, "", false
	}
	ms, err := strconv.ParseUint(v, 10, 32)
	if err != nil || ms == 0 {
		return 0, name, false
	}
	return time.Duration(ms) * time.Millisecond, name, true
}

// parseEndpoint reads a collector URL; one without a scheme is http://,
// as Murmur reads observability.otel_endpoint. What the exporter would
// drop without a word (credentials, a query) is refused instead.
func parseEndpoint(raw string) (*url.URL, error) {
	s := raw
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("%q is not a URL: %v", raw, err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("%q: the scheme must be http or https, not %s", raw, u.Scheme)
	case u.Hostname() == "":
		return nil, fmt.Errorf("%q names no host", raw)
	case u.User != nil:
		return nil, fmt.Errorf("the URL carries credentials, which would not be sent; put them in %s", EnvHeaders)
	case u.RawQuery != "" || u.Fragment != "":
		return nil, errors.New("the URL has a query or fragment, which would not be sent")
	}
	if port := u.Port(); port != "" {
		if _, err := strconv.ParseUint(port, 10, 16); err != nil {
			return nil, fmt.Errorf("%q: port %s is not a port number", raw, port)
		}
	}
	return u, nil
}

// tracesURL is where OTLP/HTTP spans are POSTed: a signal's own endpoint
// as it is, a base endpoint with v1/traces after its path.
func tracesURL(u *url.URL, signal bool) string {
	p := u.Path
	switch {
	case signal && p == "":
		p = "/"
	case !signal:
		if !strings.HasSuffix(p, "/") {
			p += "/"
		}
		p += "v1/traces"
	}
	return u.Scheme + "://" + u.Host + p
}

// display is u as messages show it.
func display(u *url.URL) string { return u.Scheme + "://" + u.Host + u.Path }
