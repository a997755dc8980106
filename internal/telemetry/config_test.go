package telemetry

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/base/diag"
)

// Resolve reads the manifest's field and the OTEL_* variables with the
// OpenTelemetry specification's meaning; the environment's endpoint wins,
// and only it is sent the environment's headers.
func TestResolve(t *testing.T) {
	type want struct {
		endpoint, protocol, from string
		headers                  map[string]string
		timeout                  time.Duration
		warns                    []string // substrings, one per warning, in order
		err                      string
	}
	cases := []struct {
		name     string
		manifest string
		env      map[string]string
		want     want
	}{
		{"nothing set", "", nil, want{}},
		{"manifest base URL", "http://localhost:4318", nil,
			want{endpoint: "http://localhost:4318/v1/traces", protocol: ProtocolHTTP, from: FieldEndpoint, timeout: DefaultTimeout}},
		{"manifest without scheme, with a path", "localhost:4318/otlp/", nil,
			want{endpoint: "http://localhost:4318/otlp/v1/traces", protocol: ProtocolHTTP, from: FieldEndpoint, timeout: DefaultTimeout}},
		{"manifest https", "https://collector.example", nil,
			want{endpoint: "https://collector.example/v1/traces", protocol: ProtocolHTTP, from: FieldEndpoint, timeout: DefaultTimeout}},
		{"manifest scheme refused", "ftp://collector", nil, want{err: "the scheme must be http or https"}},
		{"manifest credentials refused", "http://user:pw@collector:4318", nil, want{err: "carries credentials"}},
		{"manifest query refused", "http://collector:4318/?token=x", nil, want{err: "query or fragment"}},
		{"manifest without host refused", "http://", nil, want{err: "names no host"}},
		{"manifest bad port refused", "http://collector:99999", nil, want{err: "port"}},
		{"generic endpoint gets the signal path", "", map[string]string{EnvEndpoint: "http://c:4318"},
			want{endpoint: "http://c:4318/v1/traces", protocol: ProtocolHTTP, from: EnvEndpoint, timeout: DefaultTimeout}},
		{"generic endpoint with a path", "", map[string]string{EnvEndpoint: "http://c:4318/base"},
			want{endpoint: "http://c:4318/base/v1/traces", protocol: ProtocolHTTP, from: EnvEndpoint, timeout: DefaultTimeout}},
		{"signal endpoint used as it is", "", map[string]string{EnvEndpoint: "http://other:1", EnvTracesEndpoint: "http://c:4318/custom"},
			want{endpoint: "http://c:4318/custom", protocol: ProtocolHTTP, from: EnvTracesEndpoint, timeout: DefaultTimeout}},
		{"signal endpoint without a path is the root", "", map[string]string{EnvTracesEndpoint: "http://c:4318"},
			want{endpoint: "http://c:4318/", protocol: ProtocolHTTP, from: EnvTracesEndpoint, timeout: DefaultTimeout}},
		{"empty values are unset", "http://m:4318", map[string]string{EnvEndpoint: "  ", EnvTracesEndpoint: ""},
			want{endpoint: "http://m:4318/v1/traces", protocol: ProtocolHTTP, from: FieldEndpoint, timeout: DefaultTimeout}},
		{"the environment wins over the manifest", "http://m:4318", map[string]string{EnvEndpoint: "http://e:4318"},
			want{endpoint: "http://e:4318/v1/traces", protocol: ProtocolHTTP, from: EnvEndpoint, timeout: DefaultTimeout,
				warns: []string{"observability.otel_endpoint http://m:4318 is not used: OTEL_EXPORTER_OTLP_ENDPOINT names the collector"}}},
		{"grpc", "", map[string]string{EnvEndpoint: "http://c:4317", EnvProtocol: "grpc"},
			want{endpoint: "http://c:4317", protocol: ProtocolGRPC, from: EnvEndpoint, timeout: DefaultTimeout}},
		{"grpc path not used", "", map[string]string{EnvTracesEndpoint: "https://c:4317/x", EnvProtocol: "grpc"},
			want{endpoint: "https://c:4317", protocol: ProtocolGRPC, from: EnvTracesEndpoint, timeout: DefaultTimeout,
				warns: []string{"the path /x is not used"}}},
		{"signal protocol wins", "", map[string]string{EnvEndpoint: "http://c:4317", EnvProtocol: "http/protobuf", EnvTracesProtocol: "grpc"},
			want{endpoint: "http://c:4317", protocol: ProtocolGRPC, from: EnvEndpoint, timeout: DefaultTimeout}},
		{"http/json is sent as protobuf", "", map[string]string{EnvEndpoint: "http://c:4318", EnvProtocol: "http/json"},
			want{endpoint: "http://c:4318/v1/traces", protocol: ProtocolHTTP, from: EnvEndpoint, timeout: DefaultTimeout,
				warns: []string{"http/json is not supported"}}},
		{"unknown protocol: the manifest's endpoint", "http://m:4318", map[string]string{EnvEndpoint: "http://c:4318", EnvProtocol: "thrift"},
			want{endpoint: "http://m:4318/v1/traces", protocol: ProtocolHTTP, from: FieldEndpoint, timeout: DefaultTimeout,
				warns: []string{`"thrift" is not an OTLP protocol`}}},
		{"unusable environment endpoint", "", map[string]string{EnvEndpoint: "ftp://c"},
			want{warns: []string{"OTEL_EXPORTER_OTLP_ENDPOINT: \"ftp://c\": the scheme must be http or https"}}},
		{"headers", "", map[string]string{EnvEndpoint: "http://c:4318", EnvHeaders: "authorization=Bearer%20s3cr3t-token, x-tenant = acme"},
			want{endpoint: "http://c:4318/v1/traces", protocol: ProtocolHTTP, from: EnvEndpoint, timeout: DefaultTimeout,
				headers: map[string]string{"authorization": "Bearer s3cr3t-token", "x-tenant": "acme"}}},
		{"signal headers win", "", map[string]string{EnvEndpoint: "http://c:4318", EnvHeaders: "a=generic-value", EnvTracesHeaders: "b=signal-value"},
			want{endpoint: "http://c:4318/v1/traces", protocol: ProtocolHTTP, from: EnvEndpoint, timeout: DefaultTimeout,
				headers: map[string]string{"b": "signal-value"}}},
		{"a bad pair is left out", "", map[string]string{EnvEndpoint: "http://c:4318", EnvHeaders: "good=value-one,bad"},
			want{endpoint: "http://c:4318/v1/traces", protocol: ProtocolHTTP, from: EnvEndpoint, timeout: DefaultTimeout,
				headers: map[string]string{"good": "value-one"}, warns: []string{"a pair without '='"}}},
		{"headers never go to the manifest's endpoint", "http://m:4318", map[string]string{EnvHeaders: "authorization=Bearer%20s3cr3t-token"},
			want{endpoint: "http://m:4318/v1/traces", protocol: ProtocolHTTP, from: FieldEndpoint, timeout: DefaultTimeout,
				warns: []string{"headers are not sent to observability.otel_endpoint"}}},
		{"timeout", "", map[string]string{EnvEndpoint: "http://c:4318", EnvTimeout: "1500", EnvTracesTimeout: "250"},
			want{endpoint: "http://c:4318/v1/traces", protocol: ProtocolHTTP, from: EnvEndpoint, timeout: 250 * time.Millisecond}},
		{"bad timeout", "", map[string]string{EnvEndpoint: "http://c:4318", EnvTimeout: "10s"},
			want{endpoint: "http://c:4318/v1/traces", protocol: ProtocolHTTP, from: EnvEndpoint, timeout: DefaultTimeout,
				warns: []string{`OTEL_EXPORTER_OTLP_TIMEOUT="10s" is not a timeout`}}},
		{"disabled", "http://m:4318", map[string]string{EnvDisabled: "TRUE", EnvEndpoint: "http://c:4318"},
			want{warns: []string{"the environment turns OpenTelemetry export off"}}},
		{"exporter none", "", map[string]string{EnvTracesExporter: "none", EnvEndpoint: "http://c:4318"}, want{}},
		{"disabled=false is not disabled", "", map[string]string{EnvDisabled: "false", EnvEndpoint: "http://c:4318"},
			want{endpoint: "http://c:4318/v1/traces", protocol: ProtocolHTTP, from: EnvEndpoint, timeout: DefaultTimeout}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lookup := func(k string) (string, bool) { v, ok := c.env[k]; return v, ok }
			cfg, warns, err := Resolve(Source{Endpoint: c.manifest, File: "/p/murmur.yaml", LookupEnv: lookup})
			if c.want.err != "" {
				var de *diag.Error
				if err == nil || !strings.Contains(err.Error(), c.want.err) || !errors.As(err, &de) || de.Code != CodeEndpoint || de.Pos.File != "/p/murmur.yaml" {
					t.Fatalf("err = %v, want %s containing %q", err, CodeEndpoint, c.want.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Endpoint != c.want.endpoint || cfg.Protocol != c.want.protocol || cfg.From != c.want.from ||
				cfg.Enabled() && cfg.Timeout != c.want.timeout {
				t.Errorf("config = %+v, want %+v", cfg, c.want)
			}
			if len(cfg.Headers) != len(c.want.headers) {
				t.Errorf("headers = %v, want %v", cfg.Headers, c.want.headers)
			}
			for k, v := range c.want.headers {
				if cfg.Headers[k] != v {
					t.Errorf("header %s = %q, want %q", k, cfg.Headers[k], v)
				}
			}
			if len(warns) != len(c.want.warns) {
				t.Fatalf("warnings %v, want %d: %v", warns, len(c.want.warns), c.want.warns)
			}
			for i, w := range warns {
				if w.Code != WarnTelemetry || !strings.Contains(w.Msg, c.want.warns[i]) {
					t.Errorf("warning %d = %s: %s, want %s containing %q", i, w.Code, w.Msg, WarnTelemetry, c.want.warns[i])
				}
			}
		})
	}
}

// Every header value of the environment is a secret of the session,
// sent or not, generic or signal, kept or malformed; values too short to
// be a credential are not (they would cut up the trace's numbers).
func TestResolveSecrets(t *testing.T) {
	env := map[string]string{
		EnvHeaders:       "authorization=Bearer%20generic-secret,broken=%zzraw-secret-value,x=short",
		EnvTracesHeaders: "x-key=signal-secret-1",
	}
	for _, manifest := range []string{"", "ftp://refused"} {
		cfg, _, _ := Resolve(Source{Endpoint: manifest, LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
		for _, s := range []string{"Bearer generic-secret", "Bearer%20generic-secret", "generic-secret", "%zzraw-secret-value", "signal-secret-1"} {
			if !slices.Contains(cfg.Secrets, s) {
				t.Errorf("manifest %q: secrets %q lack %q", manifest, cfg.Secrets, s)
			}
		}
		if slices.Contains(cfg.Secrets, "short") {
			t.Errorf("a 5-byte value is a secret: %q", cfg.Secrets)
		}
	}
}
